// Real clusters: kubeconfig, auth, discovery, kubectl-style resource names, and the HTTP
// ListerWatcher the informer uses. Nothing here imports vscode; nothing imports client-node's
// generated API (see kubeconfig.ts for why).

export { loadCluster } from './cluster.ts';
export type { Cluster, ClusterOptions } from './cluster.ts';
export { resolveContext, kubeconfigFiles, listContexts } from './kubeconfig.ts';
export type { ContextSummary, KubeconfigSelection, ResolvedContext } from './kubeconfig.ts';
export { HttpListerWatcher } from './httpListerWatcher.ts';
export type { HttpListerWatcherStats, ResourceScope } from './httpListerWatcher.ts';
export { discover } from './discovery.ts';
export type { ApiGroupInfo, DiscoveryResult } from './discovery.ts';
export { resolveResource } from './resolve.ts';
export { builtInResource } from './builtInResources.ts';
export { collectionPath } from './resourcePath.ts';
export type { RequestOptions, StreamedResponse } from './request.ts';
export { WatchDecodeError } from './watchDecoder.ts';
export { ConnectionError, CredentialError, EventTooLargeError, KubeconfigError, StallError, UnknownResourceError, describeFailure } from './errors.ts';
export type { RetryNotice, TransportOptions } from './transport.ts';
export type { Failure, FailureKind } from './errors.ts';
