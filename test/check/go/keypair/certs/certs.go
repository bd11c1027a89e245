// Package certs is the keypair controller, but for where the internal secret's CA comes from.
// Each parent gets two Secrets it owns: `<parent>-ssl` (the certificate clients see) and
// `<parent>-ssl-internal` (the one members use among themselves), both issued by one CA, which
// each holds as `ca.crt`: a member trusts a peer only if their CAs are the same. The CA is made
// up at random, so it differs from run to run; only that the two agree is state.
package certs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

// InternalCA is the CA to issue the internal secret with, when the external one was not made by
// this reconcile (made is "" then): ssl is that secret as the cache has it.
type InternalCA func(made string, ssl *corev1.Secret) string

type keypair struct {
	client.Client
	internalCA InternalCA
}

func (r *keypair) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	ssl, err := get(ctx, r, parent, "-ssl")
	if err != nil {
		return reconcile.Result{}, err
	}
	internal, err := get(ctx, r, parent, "-ssl-internal")
	if err != nil || internal != nil {
		return reconcile.Result{}, err
	}
	made := ""
	if ssl == nil {
		made = NewCA()
		if err := r.Create(ctx, secret(parent, "-ssl", made)); err != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, client.IgnoreAlreadyExists(r.Create(ctx, secret(parent, "-ssl-internal", r.internalCA(made, ssl))))
}

func get(ctx context.Context, c client.Client, parent *corev1.ConfigMap, suffix string) (*corev1.Secret, error) {
	var s corev1.Secret
	if err := c.Get(ctx, client.ObjectKey{Namespace: parent.Namespace, Name: parent.Name + suffix}, &s); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	return &s, nil
}

// NewCA makes up a CA (random bytes stand for a key pair here).
func NewCA() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// secret is the parent's secret `<parent><suffix>`, its certificate issued by ca.
func secret(parent *corev1.ConfigMap, suffix, ca string) *corev1.Secret {
	name := parent.Name + suffix
	sum := sha256.Sum256([]byte(ca + "/" + name))
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: parent.Namespace,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "ConfigMap", Name: parent.Name, UID: parent.UID,
				Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
			}},
		},
		StringData: map[string]string{"ca.crt": ca, "tls.crt": hex.EncodeToString(sum[:16])},
	}
}

// Run starts a manager with the keypair controller.
func Run(internalCA InternalCA) {
	family.Run("keypair", func(c client.Client) reconcile.Reconciler { return &keypair{Client: c, internalCA: internalCA} })
}
