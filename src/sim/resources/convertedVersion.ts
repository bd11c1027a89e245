import type { Cause } from '../../shared/apiErrors.ts';
import type { GroupVersionResource, KubeObject } from '../../shared/k8s.ts';

// A version of a built-in kind that is served by converting to and from the version its objects are
// stored in, as kube-apiserver serves every version from one storage: events.k8s.io/v1 Events from
// the core v1 ones, autoscaling/v1 HorizontalPodAutoscalers from autoscaling/v2.

export interface ConvertedVersion {
  /** Where the objects are stored. */
  stored: GroupVersionResource;
  /** What this version's objects say they are. */
  type: { apiVersion: string; kind: string };
  toServed(stored: Readonly<KubeObject>): KubeObject;
  toStored(served: Readonly<KubeObject>): KubeObject;
  /** A field selector in the stored version's field names (when they differ). */
  storedFieldSelector?(selector: string | undefined): string | undefined;
  /** Rules only creates through this version follow, with the field names the API server reports. */
  validateCreate?(stored: Readonly<KubeObject>): Cause[];
  /** Serves /status in this version too. */
  status?: true;
  /** Cluster-scoped: its objects are addressed without a namespace. */
  clusterScoped?: true;
  /** The Warning every request through this version is answered with (a deprecated version's). */
  warning?: string;
}
