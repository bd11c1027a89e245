// Package members holds what the restarter and the recycler share: a parent keeps two members,
// `<parent>-0` and `<parent>-1` (Pods, in a real operator), made from its `data.version`; a member
// made from another version is deleted and made again (a rolling restart).
package members

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

// Count is how many members a parent keeps.
const Count = 2

// Name is the i-th member's name.
func Name(parent *corev1.ConfigMap, i int) string {
	return fmt.Sprintf("%s-%d", parent.Name, i)
}

// Get reads a member from the cache: nil when it is not there.
func Get(ctx context.Context, c client.Client, parent *corev1.ConfigMap, i int) (*corev1.ConfigMap, error) {
	var member corev1.ConfigMap
	err := c.Get(ctx, types.NamespacedName{Namespace: parent.Namespace, Name: Name(parent, i)}, &member)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &member, nil
}

// Make creates the i-th member from the parent's version (one there already is left as it is).
func Make(ctx context.Context, c client.Client, parent *corev1.ConfigMap, i int) error {
	member := family.Child(parent, Name(parent, i), "", map[string]string{"version": parent.Data["version"]})
	return client.IgnoreAlreadyExists(c.Create(ctx, member))
}

// Remove deletes this very member: not another made since under its name, which a cache that
// lags may not show yet (the delete is refused with 409 Conflict, and nothing is lost).
func Remove(ctx context.Context, c client.Client, member *corev1.ConfigMap) error {
	uid, version := member.UID, member.ResourceVersion
	err := c.Delete(ctx, member, client.Preconditions{UID: &uid, ResourceVersion: &version})
	if apierrors.IsConflict(err) {
		return nil
	}
	return client.IgnoreNotFound(err)
}
