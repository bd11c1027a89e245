package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	flowcontrolv1beta2 "k8s.io/api/flowcontrol/v1beta2"
	flowcontrolv1beta3 "k8s.io/api/flowcontrol/v1beta3"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	apiregistrationv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
)

// apiVersion is the release of the modules in go.mod: the server version the simulated cluster reports.
const apiVersion = "v1.28.4"

type root struct {
	group, version, kind string
	typ                  reflect.Type
}

// scheme: every group version of k8s.io/api a v1.28 server serves by default, CRDs and APIServices; a kind
// module in src/sim/kinds needs no line here to get its definitions.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{
		admissionregistrationv1.AddToScheme, appsv1.AddToScheme, authenticationv1.AddToScheme, authorizationv1.AddToScheme,
		autoscalingv1.AddToScheme, autoscalingv2.AddToScheme, batchv1.AddToScheme, certificatesv1.AddToScheme,
		coordinationv1.AddToScheme, corev1.AddToScheme, discoveryv1.AddToScheme, eventsv1.AddToScheme,
		flowcontrolv1beta2.AddToScheme, flowcontrolv1beta3.AddToScheme, networkingv1.AddToScheme, nodev1.AddToScheme, policyv1.AddToScheme,
		rbacv1.AddToScheme, schedulingv1.AddToScheme, storagev1.AddToScheme, apiextensionsv1.AddToScheme,
		apiregistrationv1.AddToScheme,
	} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// subresourceBodies: kinds that are only the body of a subresource (scale, eviction, token).
var subresourceBodies = []schema.GroupVersionKind{
	{Group: "autoscaling", Version: "v1", Kind: "Scale"},
	{Group: "policy", Version: "v1", Kind: "Eviction"},
	{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"},
}

// readRoots: the kinds src/sim/kinds/builtinKinds.ts registers (a JSON list of {group, version,
// kind} on stdin, written by scripts/generate-openapi.mjs), their lists, the subresource bodies
// and the API's own kinds.
func readRoots() []root {
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		panic(err)
	}
	var kinds []struct{ Group, Version, Kind string }
	if err := json.Unmarshal(input, &kinds); err != nil {
		panic(fmt.Errorf("stdin: the registered kinds as JSON: %w", err))
	}
	known := scheme.AllKnownTypes()
	out := []root{}
	add := func(gvk schema.GroupVersionKind) bool {
		t, ok := known[gvk]
		if ok {
			out = append(out, root{gvk.Group, gvk.Version, gvk.Kind, t})
		}
		return ok
	}
	for _, k := range kinds {
		gvk := schema.GroupVersionKind{Group: k.Group, Version: k.Version, Kind: k.Kind}
		if !add(gvk) {
			panic(fmt.Errorf("no Go type for %v", gvk))
		}
		add(gvk.GroupVersion().WithKind(k.Kind + "List"))
	}
	for _, gvk := range subresourceBodies {
		add(gvk)
	}
	for _, o := range []any{metav1.Status{}, metav1.DeleteOptions{}, metav1.WatchEvent{}} {
		t := reflect.TypeOf(o)
		out = append(out, root{"", "v1", t.Name(), t})
	}
	return out
}

// untagged: what the discovery and /version paths answer; kube-openapi gives them no group/version/kind.
var untagged = []reflect.Type{
	reflect.TypeOf(metav1.APIGroup{}), reflect.TypeOf(metav1.APIGroupList{}), reflect.TypeOf(metav1.APIVersions{}), reflect.TypeOf(metav1.APIResourceList{}),
	reflect.TypeOf(version.Info{}),
}
