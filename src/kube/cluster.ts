import type { ApiResource } from '../shared/k8s.ts';
import { discover } from './discovery.ts';
import type { DiscoveryResult } from './discovery.ts';
import { HttpListerWatcher } from './httpListerWatcher.ts';
import type { ResourceScope } from './httpListerWatcher.ts';
import { resolveContext } from './kubeconfig.ts';
import type { KubeconfigSelection, ResolvedContext } from './kubeconfig.ts';
import { jsonRequest, streamRequest } from './request.ts';
import type { RequestOptions, StreamedResponse } from './request.ts';
import { resolveResource } from './resolve.ts';
import { Transport } from './transport.ts';
import type { TransportOptions } from './transport.ts';

// A real cluster as one kubeconfig context names it: the entry point for the CLI and the views.

export interface ClusterOptions extends KubeconfigSelection, TransportOptions {}

export interface Cluster {
  /** The API server URL. */
  readonly server: string;
  readonly contextName: string;
  /** The context's default namespace (`default` when it sets none). */
  readonly namespace: string;
  readonly context: ResolvedContext;
  /** A JSON request; rejects with ApiError (non-2xx), ConnectionError or CredentialError. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /** A request whose body stays a stream. */
  stream(path: string, options?: RequestOptions): Promise<StreamedResponse>;
  /** The ListerWatcher an informer for this resource uses. */
  listerWatcher(resource: ApiResource, scope?: ResourceScope): HttpListerWatcher;
  /** Discovery, cached after the first success unless `refresh`. */
  discover(options?: { refresh?: boolean; signal?: AbortSignal }): Promise<DiscoveryResult>;
  /** A kubectl-style resource name (`cm`, `deployments.apps`, `widgets.v1.example.com`) → the resource. */
  resolve(name: string): Promise<ApiResource>;
  /** Closes pooled connections. */
  close(): void;
}

/** Reads the kubeconfig and prepares a client for one context. Throws KubeconfigError. No request yet. */
export function loadCluster(options: ClusterOptions = {}): Cluster {
  const context = resolveContext(options, options.env);
  const transport = new Transport(context, options);
  let discovery: Promise<DiscoveryResult> | undefined;
  const cluster: Cluster = {
    server: context.cluster.server,
    contextName: context.contextName,
    namespace: context.namespace,
    context,
    request: (path, opts) => jsonRequest(transport, path, opts),
    stream: (path, opts) => streamRequest(transport, path, opts),
    listerWatcher: (resource, scope) => new HttpListerWatcher(transport, resource, scope),
    discover(opts = {}) {
      if (!discovery || opts.refresh) {
        const attempt = discover(transport, opts.signal);
        discovery = attempt;
        attempt.catch(() => {
          if (discovery === attempt) discovery = undefined;
        });
      }
      return discovery;
    },
    async resolve(name) {
      return resolveResource(name, await cluster.discover());
    },
    close: () => transport.close(),
  };
  return cluster;
}
