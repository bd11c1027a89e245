import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
// client-node's own kubeconfig entry parsers. Deep-imported on purpose: its `config.js` (the
// KubeConfig class) pulls in the whole generated API client (~0.8 s, ~80 MB here), these do not.
import { newClusters, newContexts, newUsers } from '@kubernetes/client-node/dist/config_types.js';
import type { Cluster, Context, User } from '@kubernetes/client-node/dist/config_types.js';
import { KubeconfigError } from './errors.ts';
import { parseYaml } from './yamlParser.ts';

export type { Cluster as ClusterEntry, Context as ContextEntry, User as UserEntry };

/** Where to read the kubeconfig from and which context to use; both default like kubectl. */
export interface KubeconfigSelection {
  /** An explicit file (`--kubeconfig`). Otherwise `$KUBECONFIG` (path list, merged), then ~/.kube/config. */
  kubeconfig?: string;
  /** A context name (`--context`). Otherwise the file's current-context. */
  context?: string;
}

/** One context, resolved: the cluster to talk to, as which user, and the default namespace. */
export interface ResolvedContext {
  contextName: string;
  cluster: Cluster;
  user: User;
  /** The context's namespace, or `default` (kubectl's rule). */
  namespace: string;
  /** The files the configuration came from, in merge order. */
  files: string[];
}

interface Loaded {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  currentContext: string | undefined;
  files: string[];
}

const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The kubeconfig files kubectl would read, in order. */
export function kubeconfigFiles(selection: KubeconfigSelection, env: NodeJS.ProcessEnv = process.env): string[] {
  if (selection.kubeconfig) return [path.resolve(selection.kubeconfig)];
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter((f) => f.length > 0);
  if (fromEnv.length > 0) return fromEnv.map((f) => path.resolve(f));
  return [path.join(env.HOME || homedir(), '.kube', 'config')];
}

/** Loads and merges the kubeconfig, then resolves one context. Throws KubeconfigError naming the cause. */
export function resolveContext(selection: KubeconfigSelection = {}, env: NodeJS.ProcessEnv = process.env): ResolvedContext {
  const files = kubeconfigFiles(selection, env);
  const loaded = loadFiles(files, selection.kubeconfig !== undefined || !!env.KUBECONFIG);
  if (loaded.files.length === 0) {
    const inCluster = inClusterContext(env);
    if (inCluster) return inCluster;
    throw new KubeconfigError(`no kubeconfig found (looked at ${files.join(', ')}); pass --kubeconfig or set KUBECONFIG`);
  }
  const contextName = selection.context ?? loaded.currentContext;
  if (!contextName) throw new KubeconfigError(`kubeconfig ${loaded.files.join(', ')} has no current-context; pass --context`);
  const context = loaded.contexts.find((c) => c.name === contextName);
  if (!context) {
    const known = loaded.contexts.map((c) => c.name).join(', ') || 'none';
    throw new KubeconfigError(`context "${contextName}" not found in kubeconfig (contexts: ${known})`);
  }
  const cluster = loaded.clusters.find((c) => c.name === context.cluster);
  if (!cluster) throw new KubeconfigError(`context "${contextName}" names cluster "${context.cluster}", which the kubeconfig does not define`);
  const user = loaded.users.find((u) => u.name === context.user) ?? { name: context.user ?? '' };
  if (context.user && !loaded.users.some((u) => u.name === context.user)) {
    throw new KubeconfigError(`context "${contextName}" names user "${context.user}", which the kubeconfig does not define`);
  }
  try {
    new URL(cluster.server);
  } catch {
    throw new KubeconfigError(`cluster "${cluster.name}" has an invalid server URL: ${cluster.server}`);
  }
  return { contextName, cluster, user, namespace: context.namespace || 'default', files: loaded.files };
}

/** A context as a picker shows it. */
export interface ContextSummary {
  name: string;
  cluster: string;
  server: string | undefined;
  user: string | undefined;
  namespace: string;
}

/** The contexts the kubeconfig defines (for a picker), and which one is current. */
export function listContexts(selection: Pick<KubeconfigSelection, 'kubeconfig'> = {}, env: NodeJS.ProcessEnv = process.env): { contexts: ContextSummary[]; current: string | undefined; files: string[] } {
  const files = kubeconfigFiles(selection, env);
  const loaded = loadFiles(files, selection.kubeconfig !== undefined || !!env.KUBECONFIG);
  return {
    contexts: loaded.contexts.map((c) => ({
      name: c.name,
      cluster: c.cluster,
      server: loaded.clusters.find((k) => k.name === c.cluster)?.server,
      user: c.user,
      namespace: c.namespace || 'default',
    })),
    current: loaded.currentContext,
    files: loaded.files,
  };
}

// Merge rule of client-go's loader: the first file that defines a name wins, and so does the first
// current-context. A missing file is an error only when it was named explicitly.
function loadFiles(files: string[], explicit: boolean): Loaded {
  const out: Loaded = { clusters: [], users: [], contexts: [], currentContext: undefined, files: [] };
  for (const file of files) {
    if (!existsSync(file)) {
      if (explicit && files.length === 1) throw new KubeconfigError(`kubeconfig ${file} does not exist`);
      continue;
    }
    const doc = parseFile(file);
    const dir = path.dirname(file);
    let clusters: Cluster[], users: User[], contexts: Context[];
    try {
      clusters = newClusters(doc.clusters);
      users = newUsers(doc.users);
      contexts = newContexts(doc.contexts);
    } catch (err) {
      throw new KubeconfigError(`kubeconfig ${file} is invalid: ${(err as Error).message}`);
    }
    for (const c of clusters) {
      if (c.caFile) c.caFile = path.resolve(dir, c.caFile);
      addNew(out.clusters, c);
    }
    for (const u of users) {
      if (u.certFile) u.certFile = path.resolve(dir, u.certFile);
      if (u.keyFile) u.keyFile = path.resolve(dir, u.keyFile);
      addNew(out.users, u);
    }
    for (const c of contexts) addNew(out.contexts, c);
    const current = doc['current-context'];
    if (!out.currentContext && typeof current === 'string' && current) out.currentContext = current;
    out.files.push(file);
  }
  return out;
}

function parseFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // A directory or a file we may not read is not a YAML problem: say what it is, as kubectl does.
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new KubeconfigError(`cannot read kubeconfig ${file}: ${why}`);
  }
  let doc: unknown;
  try {
    doc = parseText(text);
  } catch (err) {
    throw new KubeconfigError(`kubeconfig ${file} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new KubeconfigError(`kubeconfig ${file} is not a YAML mapping`);
  return doc as Record<string, unknown>;
}

/**
 * JSON is YAML: a kubeconfig written as JSON (as tools and tests write them) is read by JSON.parse,
 * which costs a fraction of running the YAML parser's code for the first time at start-up. As
 * client-go, which turns YAML into JSON before decoding, a repeated key keeps its last value.
 */
function parseText(text: string): unknown {
  if (text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON after all (YAML's flow style, comments): the YAML parser reads it.
    }
  }
  return parseYaml(text);
}

function addNew<T extends { name: string }>(into: T[], item: T): void {
  if (!into.some((x) => x.name === item.name)) into.push(item);
}

// Running in a pod with no kubeconfig: the service account, as client-go's rest.InClusterConfig does.
function inClusterContext(env: NodeJS.ProcessEnv): ResolvedContext | undefined {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  const tokenFile = path.join(SERVICE_ACCOUNT_DIR, 'token');
  if (!host || !port || !existsSync(tokenFile)) return undefined;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const nsFile = path.join(SERVICE_ACCOUNT_DIR, 'namespace');
  return {
    contextName: 'in-cluster',
    cluster: { name: 'in-cluster', server: `https://${hostPart}:${port}`, caFile: path.join(SERVICE_ACCOUNT_DIR, 'ca.crt'), skipTLSVerify: false },
    user: { name: 'in-cluster', authProvider: { name: 'tokenFile', config: { tokenFile } } },
    namespace: existsSync(nsFile) ? readFileSync(nsFile, 'utf8').trim() : 'default',
    files: [],
  };
}
