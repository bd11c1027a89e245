// The keypair controller (certs): each parent gets an external and an internal TLS secret, issued
// by one CA.
//
// Planted bug (intermediate state): it issues both from the CA it makes in the reconcile that
// creates the external secret, and makes a new CA for the internal one when that reconcile did
// not. Killed between the two creates, it restarts to an external secret and no internal one, and
// issues the internal one from another CA: members no longer trust each other (Sieve found this in
// percona's MongoDB and XtraDB operators and in cass-operator: TLS secrets made in two steps).
package main

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/controller-lab/controller-lab/test/check/go/keypair/certs"
)

func main() {
	certs.Run(func(made string, _ *corev1.Secret) string {
		if made != "" {
			return made
		}
		return certs.NewCA()
	})
}
