// Package volumes is what the resizer's two variants share. A parent (family.Parent) asks for
// data.size; it gets a set, <parent>-set, that records the size it was made for, and two volumes,
// <parent>-vol-0 and -1, that hold that much. A set cannot be changed in place (as a StatefulSet's
// volumeClaimTemplates cannot): to resize, the set is deleted and made again with the new size,
// and the volumes are expanded.
package volumes

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const Count = 2

func SetName(parent *corev1.ConfigMap) string { return parent.Name + "-set" }

func VolumeName(parent *corev1.ConfigMap, i int) string {
	return fmt.Sprintf("%s-vol-%d", parent.Name, i)
}

// Get reads a child of the parent from the cache: nil when there is none.
func Get(ctx context.Context, c client.Client, parent *corev1.ConfigMap, name string) (*corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: parent.Namespace, Name: name}, &cm); err != nil {
		return nil, client.IgnoreNotFound(err)
	}
	return &cm, nil
}

// Ensure makes the child with data.size if it is missing (AlreadyExists is fine: the cache was behind).
func Ensure(ctx context.Context, c client.Client, parent *corev1.ConfigMap, name string, existing *corev1.ConfigMap) error {
	if existing != nil {
		return nil
	}
	err := c.Create(ctx, family.Child(parent, name, "", map[string]string{"size": parent.Data["size"]}))
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// Expand sets a volume's size.
func Expand(ctx context.Context, c client.Client, volume *corev1.ConfigMap, size string) error {
	if volume.Data["size"] == size {
		return nil
	}
	expanded := volume.DeepCopy()
	expanded.Data = map[string]string{"size": size}
	return c.Update(ctx, expanded)
}

// Remake deletes the set and makes it again with the parent's size. It deletes this very set: on
// a cache that lags, not one made since under its name (refused with 409 Conflict: the set is
// made already).
func Remake(ctx context.Context, c client.Client, parent *corev1.ConfigMap, set *corev1.ConfigMap) error {
	uid, version := set.UID, set.ResourceVersion
	err := c.Delete(ctx, set, client.Preconditions{UID: &uid, ResourceVersion: &version})
	if apierrors.IsConflict(err) {
		return nil
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return Ensure(ctx, c, parent, SetName(parent), nil)
}
