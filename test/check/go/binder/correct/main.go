// The binder, fixed: a binding is to one Secret, known by its uid, and only a Secret that carries
// the label is bound. A Secret made again under the same name has another uid: it is bound anew,
// however the binder came to see it.
package main

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/controller-lab/controller-lab/test/check/go/binder/binding"
)

func main() {
	binding.Run(func(parent *corev1.ConfigMap, secret *corev1.Secret) bool {
		return parent.Annotations[binding.BoundUID] == string(secret.UID) && secret.Labels[binding.BoundTo] == parent.Name
	})
}
