import type { KubeObject } from '../../shared/k8s.ts';
import type { Operation, Webhook } from './webhookConfigurations.ts';

// What admission knows of a request when it decides which webhooks to call and what to send them.

export interface AdmissionAttributes {
  operation: Operation;
  group: string;
  /** The version the request used. */
  version: string;
  resource: string;
  subresource: string;
  kind: string;
  namespaced: boolean;
  namespace: string;
  name: string;
  /** The object after the request (absent for a delete). */
  object: Readonly<KubeObject> | undefined;
  oldObject: Readonly<KubeObject> | undefined;
  /** Every version the resource is served in: the candidates of an Equivalent match. */
  servedVersions: readonly string[];
}

/** A webhook to call, and the resource version it asked for. */
export interface Invocation {
  webhook: Webhook;
  version: string;
}
