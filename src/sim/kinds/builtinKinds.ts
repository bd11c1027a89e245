import type { KindModule } from './kindModule.ts';
import { apiServiceKind } from './apiService.ts';
import { bindingKind } from './binding.ts';
import { certificateSigningRequestKind } from './certificateSigningRequest.ts';
import { clusterRoleKind } from './clusterRole.ts';
import { componentStatusKind } from './componentStatus.ts';
import { clusterRoleBindingKind } from './clusterRoleBinding.ts';
import { configMapKind } from './configMap.ts';
import { controllerRevisionKind } from './controllerRevision.ts';
import { cronJobKind } from './cronJob.ts';
import { csiDriverKind } from './csiDriver.ts';
import { csiNodeKind } from './csiNode.ts';
import { csiStorageCapacityKind } from './csiStorageCapacity.ts';
import { customResourceDefinitionKind } from './customResourceDefinition.ts';
import { daemonSetKind } from './daemonSet.ts';
import { deploymentKind } from './deployment.ts';
import { endpointsKind } from './endpoints.ts';
import { endpointSliceKind } from './endpointSlice.ts';
import { eventKind } from './event.ts';
import { eventV1Kind } from './eventV1.ts';
import { flowSchemaKind, flowSchemaV1beta2Kind } from './flowSchema.ts';
import { horizontalPodAutoscalerKind } from './horizontalPodAutoscaler.ts';
import { horizontalPodAutoscalerV1Kind } from './horizontalPodAutoscalerV1.ts';
import { ingressKind } from './ingress.ts';
import { ingressClassKind } from './ingressClass.ts';
import { jobKind } from './job.ts';
import { localSubjectAccessReviewKind } from './localSubjectAccessReview.ts';
import { leaseKind } from './lease.ts';
import { limitRangeKind } from './limitRange.ts';
import { mutatingWebhookConfigurationKind } from './mutatingWebhookConfiguration.ts';
import { namespaceKind } from './namespace.ts';
import { networkPolicyKind } from './networkPolicy.ts';
import { nodeKind } from './node.ts';
import { persistentVolumeKind } from './persistentVolume.ts';
import { persistentVolumeClaimKind } from './persistentVolumeClaim.ts';
import { podKind } from './pod.ts';
import { podDisruptionBudgetKind } from './podDisruptionBudget.ts';
import { podTemplateKind } from './podTemplate.ts';
import { priorityClassKind } from './priorityClass.ts';
import { priorityLevelConfigurationKind, priorityLevelConfigurationV1beta2Kind } from './priorityLevelConfiguration.ts';
import { replicaSetKind } from './replicaSet.ts';
import { replicationControllerKind } from './replicationController.ts';
import { resourceQuotaKind } from './resourceQuota.ts';
import { roleKind } from './role.ts';
import { roleBindingKind } from './roleBinding.ts';
import { runtimeClassKind } from './runtimeClass.ts';
import { secretKind } from './secret.ts';
import { selfSubjectAccessReviewKind } from './selfSubjectAccessReview.ts';
import { selfSubjectReviewKind } from './selfSubjectReview.ts';
import { selfSubjectRulesReviewKind } from './selfSubjectRulesReview.ts';
import { serviceKind } from './service.ts';
import { serviceAccountKind } from './serviceAccount.ts';
import { statefulSetKind } from './statefulSet.ts';
import { storageClassKind } from './storageClass.ts';
import { subjectAccessReviewKind } from './subjectAccessReview.ts';
import { tokenReviewKind } from './tokenReview.ts';
import { validatingWebhookConfigurationKind } from './validatingWebhookConfiguration.ts';
import { volumeAttachmentKind } from './volumeAttachment.ts';

// The built-in kinds the simulated cluster serves, one module each, in the order discovery lists
// them (a v1.28 kube-apiserver's order within /api/v1; groups as it lists them in /apis). Adding a
// kind is a new module file and one line here.

export const BUILTIN_KINDS: readonly KindModule[] = [
  namespaceKind,
  bindingKind,
  componentStatusKind,
  configMapKind,
  secretKind,
  podKind,
  serviceKind,
  endpointsKind,
  eventKind,
  serviceAccountKind,
  nodeKind,
  persistentVolumeClaimKind,
  persistentVolumeKind,
  resourceQuotaKind,
  limitRangeKind,
  podTemplateKind,
  replicationControllerKind,
  apiServiceKind,
  deploymentKind,
  replicaSetKind,
  statefulSetKind,
  daemonSetKind,
  controllerRevisionKind,
  eventV1Kind,
  selfSubjectReviewKind,
  tokenReviewKind,
  localSubjectAccessReviewKind,
  selfSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  subjectAccessReviewKind,
  horizontalPodAutoscalerKind,
  horizontalPodAutoscalerV1Kind,
  jobKind,
  cronJobKind,
  certificateSigningRequestKind,
  ingressKind,
  networkPolicyKind,
  ingressClassKind,
  podDisruptionBudgetKind,
  roleKind,
  roleBindingKind,
  clusterRoleKind,
  clusterRoleBindingKind,
  csiDriverKind,
  csiNodeKind,
  csiStorageCapacityKind,
  storageClassKind,
  volumeAttachmentKind,
  validatingWebhookConfigurationKind,
  mutatingWebhookConfigurationKind,
  customResourceDefinitionKind,
  priorityClassKind,
  leaseKind,
  runtimeClassKind,
  endpointSliceKind,
  flowSchemaKind,
  priorityLevelConfigurationKind,
  flowSchemaV1beta2Kind,
  priorityLevelConfigurationV1beta2Kind,
];
