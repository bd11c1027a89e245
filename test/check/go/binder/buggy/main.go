// The binder (binding): it labels the Secret a parent names and records the binding on the parent.
//
// Planted bug (unobserved state): it takes "the binding names this Secret" to mean the Secret is
// bound, and forgets a binding only when it finds the Secret gone. A Secret deleted and made again
// under the same name, seen as one change (the two events coalesced, or a relist across them), is
// another object without the label, and it never labels it: it compares names, not uids.
package main

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/controller-lab/controller-lab/test/check/go/binder/binding"
)

func main() {
	binding.Run(func(parent *corev1.ConfigMap, secret *corev1.Secret) bool {
		return parent.Annotations[binding.Bound] == secret.Name
	})
}
