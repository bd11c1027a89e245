import { writeFileSync } from 'node:fs';
import type { createSharedInformer, dropManagedFields, ListerWatcher, SharedIndexInformer } from '../informer/index.ts';
import type { Cluster, RetryNotice } from '../kube/index.ts';
import { builtInResource, ConnectionError, CredentialError, describeFailure, KubeconfigError, loadCluster } from '../kube/index.ts';
import { ApiError } from '../shared/apiError.ts';
import type { ApiResource, KubeObject } from '../shared/k8s.ts';
import { oneOf, parseCommandLine, UsageError } from './args.ts';
import { ageCount, ageSeconds, ageUnit, UNKNOWN_AGE } from './age.ts';
import { BatchedWriter } from './output.ts';
import { tapListerWatcher } from './tapListerWatcher.ts';
import { durationOption, sizeOption } from './units.ts';
import { qualifiedResource } from '../shared/k8s.ts';

const USAGE = `usage: controller-lab watch RESOURCE [options]

Runs an informer (list, then watch; relist on 410) for RESOURCE and prints what it sees.
RESOURCE is named as with kubectl: configmaps, cm, deployments.apps, deploy, widgets.v1.example.com.

options:
  --kubeconfig FILE         kubeconfig to use (default: $KUBECONFIG, then ~/.kube/config)
  --context NAME            kubeconfig context (default: the current context)
  -n, --namespace NS        namespace (default: the context's namespace, else "default")
  -A, --all-namespaces      every namespace
  -l, --selector SELECTOR   label selector, e.g. app=web,tier!=db
  --field-selector SEL      field selector, e.g. metadata.name=web
  --watch-list              start with a streaming list (watch with sendInitialEvents, Kubernetes
                            1.27+) instead of a plain list; falls back when the server refuses
  -o, --output FORMAT       events (default): a line per change, like kubectl get -w --output-watch-events
                            jsonl: each watch event as the server sent it, one JSON per line (the
                                   initial list's items first, as ADDED events), managedFields included
                            none: print nothing but the summary
  --exit-when-seen NS/NAME  exit 0 once the informer has processed an event for this object
                            (and everything queued with it: a relist is applied whole first)
  --dump-cache FILE         on exit, write the cache as a JSON array of
                            {namespace, name, uid, resourceVersion}, sorted by namespace/name
  --stall-timeout DURATION  abort and retry a request the server stops answering, or a list whose
                            body stops arriving, for this long (default 60s; 0 = wait forever)
  --watch-idle-timeout DURATION
                            reconnect a watch that delivers nothing, not even a bookmark, for this
                            long, from the last resourceVersion; a warning only if the new watch
                            at once brings changes the old one held (default: none; as client-go,
                            each watch ends at its own timeout, 5-10 min at random; 0 = neither)
  --max-event-size SIZE     refuse watch events longer than this, in characters (default 16Mi, as
                            client-go); the watch is closed and resumed from the last good event
  -h, --help                show this help

The informer's cache leaves metadata.managedFields out, as the extension's views do.
Answers 429 or 5xx with Retry-After are sent again after the wait the server asks for (30s at
most, client-go's longest backoff), up to 10 times; a server that expires every watch (410) is
listed again with backoff, 0.8s doubling to 30s. Every retry, stall and reconnection, such a
server, and a list still unanswered after 10s, is a "warning:" line on stderr.
On exit, one summary line goes to stderr: lists, watches, relists, 410s, events, events/s.
Exit codes: 0 done (Ctrl-C, --exit-when-seen), 2 usage, kubeconfig, connection, auth or
unknown-resource errors, or a first list the server refuses (400, 422: a selector it cannot parse).
`;

const OPTIONS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  selector: { type: 'string', short: 'l' },
  'field-selector': { type: 'string' },
  'watch-list': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  'exit-when-seen': { type: 'string' },
  'dump-cache': { type: 'string' },
  'stall-timeout': { type: 'string' },
  'watch-idle-timeout': { type: 'string' },
  'max-event-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Output = 'events' | 'jsonl' | 'none';
/** What watch uses of the informer module, loaded once the arguments are read. */
interface InformerModule {
  createSharedInformer: typeof createSharedInformer;
  dropManagedFields: typeof dropManagedFields;
}

interface WatchArgs {
  resource: string;
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  allNamespaces: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  watchList: boolean;
  output: Output;
  exitWhenSeen?: string;
  dumpCache?: string;
  stallTimeoutMs?: number;
  watchIdleTimeoutMs?: number;
  maxEventLength?: number;
}

function parse(argv: string[]): WatchArgs | 'help' {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'RESOURCE is required' : `one RESOURCE only (got ${positionals.join(' ')})`);
  if (values['all-namespaces'] && values.namespace) throw new UsageError('-n and -A exclude each other');
  return {
    resource: positionals[0] ?? '',
    kubeconfig: values.kubeconfig,
    context: values.context,
    namespace: values.namespace,
    allNamespaces: values['all-namespaces'] ?? false,
    labelSelector: values.selector,
    fieldSelector: values['field-selector'],
    watchList: values['watch-list'] ?? false,
    output: oneOf('output', values.output ?? 'events', ['events', 'jsonl', 'none'] as const),
    exitWhenSeen: values['exit-when-seen'],
    dumpCache: values['dump-cache'],
    stallTimeoutMs: values['stall-timeout'] === undefined ? undefined : durationOption('stall-timeout', values['stall-timeout']),
    watchIdleTimeoutMs: values['watch-idle-timeout'] === undefined ? undefined : durationOption('watch-idle-timeout', values['watch-idle-timeout']),
    maxEventLength: values['max-event-size'] === undefined ? undefined : sizeOption('max-event-size', values['max-event-size']),
  };
}

export async function main(argv: string[]): Promise<number> {
  let args: WatchArgs | 'help';
  try {
    args = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`controller-lab watch: ${err.message}\nRun 'controller-lab watch --help' for usage.\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  // Loaded only now, so that --help and usage errors answer at once. (The kube client is imported
  // above: its error classes are needed to describe failures.)
  const informers = await import('../informer/index.ts');
  let cluster: Cluster | undefined;
  try {
    cluster = loadCluster({
      kubeconfig: args.kubeconfig,
      context: args.context,
      stallTimeoutMs: args.stallTimeoutMs,
      maxEventLength: args.maxEventLength,
      onRetry: (r) => process.stderr.write(`controller-lab watch: warning: ${retryWarning(r)}\n`),
      onWarning: (w) => process.stderr.write(`controller-lab watch: warning: ${w}\n`),
    });
    // A core kind named by its plural or singular needs no discovery: the list goes out at once
    // (one round trip and the parse of the server's whole discovery document saved).
    const resource = builtInResource(args.resource) ?? (await cluster.resolve(args.resource));
    if (resource.verbs.length > 0 && !(resource.verbs.includes('list') && resource.verbs.includes('watch'))) {
      throw new UsageError(`${qualifiedResource(resource)} cannot be watched (verbs: ${resource.verbs.join(', ')})`);
    }
    return await watchResource(cluster, resource, args, informers);
  } catch (err) {
    if (!isUserFacing(err)) throw err;
    process.stderr.write(`controller-lab watch: ${describeFailure(err).message}\n`);
    return 2;
  } finally {
    cluster?.close();
  }
}

/** Failures that are about the environment, not bugs: printed as one line, exit code 2. */
function isUserFacing(err: unknown): boolean {
  return err instanceof Error && (err instanceof ApiError || err instanceof ConnectionError || err instanceof CredentialError || err instanceof KubeconfigError || err instanceof UsageError || err.name === 'UnknownResourceError');
}


function watchResource(cluster: Cluster, resource: ApiResource, args: WatchArgs, { createSharedInformer, dropManagedFields }: InformerModule): Promise<number> {
  const namespace = !resource.namespaced || args.allNamespaces ? undefined : (args.namespace ?? cluster.namespace);
  const out = new BatchedWriter(process.stdout);
  let lw: ListerWatcher = cluster.listerWatcher(resource, { namespace, labelSelector: args.labelSelector, fieldSelector: args.fieldSelector });
  if (args.output === 'jsonl') {
    lw = tapListerWatcher(lw, {
      listed: (list) => {
        for (const item of list.items) out.line(JSON.stringify({ type: 'ADDED', object: item }));
      },
      event: (ev) => out.line(JSON.stringify(ev)),
    });
  }
  const informer = createSharedInformer<KubeObject>({
    name: namespace ? `${qualifiedResource(resource)}@${namespace}` : qualifiedResource(resource),
    listerWatcher: lw,
    useWatchList: args.watchList,
    watchIdleTimeoutMs: args.watchIdleTimeoutMs,
    // Nothing printed reads them (as kubectl get, which hides them); -o jsonl prints what was sent.
    transform: dropManagedFields,
  });
  const started = performance.now();

  return new Promise<number>((resolve) => {
    // The informer's timers (backoff, resync) do not hold the process open; this does, until finish.
    const alive = setInterval(() => {}, 1 << 30);
    let finished = false;
    const finish = (exitCode: number, message?: string): void => {
      if (finished) return;
      finished = true;
      clearInterval(alive);
      informer.stop();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const elapsed = performance.now() - started;
      // Events first, then the closing lines on stderr, so a terminal shows them in that order.
      out.flush(() => {
        let code = exitCode;
        if (message) {
          // A failure the user must fix: its one line is all there is to say.
          process.stderr.write(`controller-lab watch: ${message}\n`);
        } else {
          if (args.dumpCache) {
            try {
              writeFileSync(args.dumpCache, dumpCache(informer));
            } catch (err) {
              process.stderr.write(`controller-lab watch: cannot write --dump-cache ${args.dumpCache}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
              code = 2;
            }
          }
          process.stderr.write(`${summary(informer, elapsed)}\n`);
        }
        resolve(code);
      });
    };
    const onSignal = (): void => finish(0);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.stdout.on('error', () => finish(0)); // e.g. `| head`: the reader went away

    const printEvent = args.output === 'events' ? eventPrinter(out, resource.namespaced) : undefined;
    // The object may arrive in the middle of a relist whose other changes (its deletions come
    // last) are still being applied: exit once they are, so that --dump-cache is a snapshot the
    // server had, not half of one.
    let exiting = false;
    const exitWhenSettled = (): void => {
      if (finished || isSettled(informer)) return finish(0);
      setImmediate(exitWhenSettled);
    };
    const wanted = args.exitWhenSeen === undefined ? undefined : splitKey(args.exitWhenSeen);
    const seen = (obj: KubeObject): void => {
      // Compared field by field: a key string built per event would be garbage for every one.
      if (exiting || wanted === undefined || obj.metadata.name !== wanted.name || (obj.metadata.namespace ?? '') !== wanted.namespace) return;
      exiting = true;
      setImmediate(exitWhenSettled);
    };
    informer.addEventHandler(
      {
        onAdd: (obj) => (printEvent?.('ADDED', obj as KubeObject), seen(obj as KubeObject)),
        onUpdate: (_old, obj) => (printEvent?.('MODIFIED', obj as KubeObject), seen(obj as KubeObject)),
        onDelete: (obj) => (printEvent?.('DELETED', obj as KubeObject), seen(obj as KubeObject)),
      },
      { name: 'controller-lab watch' },
    );
    informer.onError((err) => {
      // Before the first sync, a failure the informer would retry forever (bad credentials, no
      // access, no server) is the user's to fix: stop and say so. Later ones are retried.
      if (!informer.hasSynced() && isFatalBeforeSync(err)) {
        const message = describeFailure(err).message + allNamespacesHint(err, namespace === undefined && resource.namespaced);
        if (!(err instanceof ApiError && err.code === 404 && builtInResource(args.resource))) return finish(2, message);
        // A built-in kind this server does not serve: discovery says so, as it would have up front.
        informer.stop();
        void cluster.resolve(args.resource).then(
          () => finish(2, message),
          (e: unknown) => finish(2, isUserFacing(e) ? describeFailure(e).message : message),
        );
        return;
      }
      process.stderr.write(`controller-lab watch: warning: ${afterSyncWords(err, resource)} (retrying)\n`);
    });
    informer.run();
  });
}

/** Nothing queued between the server and the cache or the handlers. */
function isSettled(informer: SharedIndexInformer): boolean {
  const s = informer.stats();
  return s.fifoDepth === 0 && s.handlers.every((h) => h.queued === 0);
}

function retryWarning(r: RetryNotice): string {
  const when = r.askedMs > r.waitMs ? `in ${duration(r.waitMs)}, the longest wait we honour; its Retry-After asked for ${duration(r.askedMs)}` : `in ${duration(r.waitMs)} as its Retry-After asks`;
  return `the server answered ${r.code}${r.reason ? ` ${r.reason}` : ''}: ${r.message.split('\n', 1)[0]} (retrying ${r.method} ${r.path} ${when}, ${r.attempt}/${r.maxRetries})`;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function isFatalBeforeSync(err: unknown): boolean {
  // 400 and 422: the request itself is refused (a selector the server cannot parse), every time.
  if (err instanceof ApiError) return err.code === 400 || err.code === 401 || err.code === 403 || err.code === 404 || err.code === 422;
  return err instanceof ConnectionError || err instanceof CredentialError;
}

/**
 * RBAC that grants a kind in some namespaces (a Role) refuses -A "at the cluster scope": the cure is
 * -n, which the server's message does not say.
 */
function allNamespacesHint(err: unknown, allNamespaces: boolean): string {
  const clusterScope = err instanceof ApiError && err.code === 403 && err.message.includes('at the cluster scope');
  return allNamespaces && clusterScope ? '; -A needs access in every namespace: name one you may read with -n NAMESPACE' : '';
}

/**
 * A 404 after the sync: the server stopped serving the kind (its CRD deleted, an aggregated API
 * gone); kube-apiserver says only "404 page not found".
 */
function afterSyncWords(err: unknown, resource: ApiResource): string {
  if (!(err instanceof ApiError) || err.code !== 404) return describeFailure(err).message;
  const detail = err.message.split('\n', 1)[0];
  return `the server no longer serves ${qualifiedResource(resource)} (404 NotFound${detail ? `: ${detail}` : ''}): its CustomResourceDefinition deleted, or its API removed?`;
}

/** `NS/NAME`, or `NAME` for a cluster-scoped object, as the cache keys it. */
function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

type EventPrinter = (type: string, obj: KubeObject) => void;

/**
 * Lines as kubectl get -w --output-watch-events prints them, in fixed-width columns. Written column
 * by column into the output batch: a string per line (and one per padded value) cost more than the
 * rest of printing.
 */
function eventPrinter(out: BatchedWriter, namespaced: boolean): EventPrinter {
  const columns = (type: string, ns: string, name: string, rv: string): void => {
    out.column(type, 8, GAP);
    if (namespaced) out.column(ns, 20, GAP);
    out.column(name, 40, GAP);
    out.column(rv, 10, GAP);
  };
  // With the first event, as kubectl: a watch that fails before any leaves stdout empty.
  let headed = false;
  const header = (): void => {
    headed = true;
    columns('EVENT', 'NAMESPACE', 'NAME', 'RV');
    out.line('AGE');
  };
  return (type: string, obj: KubeObject) => {
    if (!headed) header();
    const m = obj.metadata;
    columns(type, m.namespace ?? '', m.name ?? '', m.resourceVersion ?? '');
    const seconds = ageSeconds(m.creationTimestamp, out.now());
    if (Number.isNaN(seconds)) out.text(UNKNOWN_AGE);
    else {
      out.integer(ageCount(seconds));
      out.text(ageUnit(seconds));
    }
    out.endLine();
  };
}

/** Spaces between columns. */
const GAP = 3;

function summary(informer: SharedIndexInformer, elapsedMs: number): string {
  const s = informer.stats();
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? s.events / seconds : 0;
  return `lists=${s.lists} watches=${s.watches} relists=${s.relists} 410s=${s.expired} events=${s.events} events/s=${rate.toFixed(1)} elapsed=${seconds.toFixed(1)}s cached=${s.cached}`;
}

function dumpCache(informer: SharedIndexInformer): string {
  const rows = informer.indexer
    .list()
    .map((o) => ({ namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '', uid: o.metadata.uid ?? '', resourceVersion: o.metadata.resourceVersion ?? '' }))
    .sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return `${JSON.stringify(rows, null, 1)}\n`;
}
