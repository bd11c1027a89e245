package main

import (
	"reflect"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	eventsv1 "k8s.io/api/events/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/version"
)

// apiVersion is the release of the modules in go.mod: the server version the simulated cluster reports.
const apiVersion = "v1.28.4"

type root struct {
	group, version, kind string
	typ                  reflect.Type
}

func r(group, version string, objects ...any) []root {
	out := []root{}
	for _, o := range objects {
		t := reflect.TypeOf(o)
		out = append(out, root{group, version, t.Name(), t})
	}
	return out
}

func concat(lists ...[]root) []root {
	out := []root{}
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// roots: the kinds src/sim/resources/builtins.ts serves, their lists, and the API's own kinds.
var roots = concat(
	r("", "v1",
		corev1.ConfigMap{}, corev1.ConfigMapList{}, corev1.Secret{}, corev1.SecretList{},
		corev1.Namespace{}, corev1.NamespaceList{}, corev1.ServiceAccount{}, corev1.ServiceAccountList{},
		corev1.Event{}, corev1.EventList{}, corev1.Pod{}, corev1.PodList{}, corev1.Service{}, corev1.ServiceList{},
		corev1.Endpoints{}, corev1.EndpointsList{}, corev1.Node{}, corev1.NodeList{},
		corev1.PersistentVolumeClaim{}, corev1.PersistentVolumeClaimList{}, corev1.PersistentVolume{}, corev1.PersistentVolumeList{},
		corev1.ResourceQuota{}, corev1.ResourceQuotaList{}, corev1.LimitRange{}, corev1.LimitRangeList{},
		corev1.PodTemplate{}, corev1.PodTemplateList{}, corev1.Binding{}),
	r("apps", "v1",
		appsv1.Deployment{}, appsv1.DeploymentList{}, appsv1.ReplicaSet{}, appsv1.ReplicaSetList{},
		appsv1.StatefulSet{}, appsv1.StatefulSetList{}, appsv1.DaemonSet{}, appsv1.DaemonSetList{},
		appsv1.ControllerRevision{}, appsv1.ControllerRevisionList{}),
	r("batch", "v1", batchv1.Job{}, batchv1.JobList{}, batchv1.CronJob{}, batchv1.CronJobList{}),
	r("certificates.k8s.io", "v1", certificatesv1.CertificateSigningRequest{}, certificatesv1.CertificateSigningRequestList{}),
	r("events.k8s.io", "v1", eventsv1.Event{}, eventsv1.EventList{}),
	r("autoscaling", "v2", autoscalingv2.HorizontalPodAutoscaler{}, autoscalingv2.HorizontalPodAutoscalerList{}),
	r("autoscaling", "v1", autoscalingv1.Scale{}),
	r("networking.k8s.io", "v1",
		networkingv1.Ingress{}, networkingv1.IngressList{}, networkingv1.NetworkPolicy{}, networkingv1.NetworkPolicyList{},
		networkingv1.IngressClass{}, networkingv1.IngressClassList{}),
	r("discovery.k8s.io", "v1", discoveryv1.EndpointSlice{}, discoveryv1.EndpointSliceList{}),
	r("scheduling.k8s.io", "v1", schedulingv1.PriorityClass{}, schedulingv1.PriorityClassList{}),
	r("storage.k8s.io", "v1", storagev1.StorageClass{}, storagev1.StorageClassList{}),
	r("admissionregistration.k8s.io", "v1",
		admissionregistrationv1.ValidatingWebhookConfiguration{}, admissionregistrationv1.ValidatingWebhookConfigurationList{},
		admissionregistrationv1.MutatingWebhookConfiguration{}, admissionregistrationv1.MutatingWebhookConfigurationList{}),
	r("policy", "v1", policyv1.PodDisruptionBudget{}, policyv1.PodDisruptionBudgetList{}, policyv1.Eviction{}),
	r("coordination.k8s.io", "v1", coordinationv1.Lease{}, coordinationv1.LeaseList{}),
	r("rbac.authorization.k8s.io", "v1",
		rbacv1.Role{}, rbacv1.RoleList{}, rbacv1.ClusterRole{}, rbacv1.ClusterRoleList{},
		rbacv1.RoleBinding{}, rbacv1.RoleBindingList{}, rbacv1.ClusterRoleBinding{}, rbacv1.ClusterRoleBindingList{}),
	r("authorization.k8s.io", "v1", authorizationv1.SelfSubjectAccessReview{}, authorizationv1.SelfSubjectRulesReview{}),
	r("authentication.k8s.io", "v1", authenticationv1.SelfSubjectReview{}, authenticationv1.TokenRequest{}),
	r("apiextensions.k8s.io", "v1", apiextensionsv1.CustomResourceDefinition{}, apiextensionsv1.CustomResourceDefinitionList{}),
	r("", "v1", metav1.Status{}),
	r("", "v1", metav1.DeleteOptions{}, metav1.WatchEvent{}),
)

// untagged: what the discovery and /version paths answer; kube-openapi gives them no group/version/kind.
var untagged = []reflect.Type{
	reflect.TypeOf(metav1.APIGroup{}), reflect.TypeOf(metav1.APIGroupList{}), reflect.TypeOf(metav1.APIVersions{}), reflect.TypeOf(metav1.APIResourceList{}),
	reflect.TypeOf(version.Info{}),
}
