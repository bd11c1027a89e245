// The stamper, fixed: it writes the summary only when what it says differs from what is there
// (and stamps the time of that change, not of every reconcile).
package main

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

type stamper struct{ client.Client }

func (r *stamper) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	keys := strings.Join(slices.Sorted(maps.Keys(parent.Data)), ",")
	var summary corev1.ConfigMap
	err = r.Get(ctx, types.NamespacedName{Namespace: req.Namespace, Name: req.Name + "-summary"}, &summary)
	if err != nil && !apierrors.IsNotFound(err) {
		return reconcile.Result{}, err
	}
	if err == nil && summary.Data["keys"] == keys {
		return reconcile.Result{}, nil
	}
	data := map[string]string{"keys": keys, "syncedAt": time.Now().UTC().Format(time.RFC3339Nano)}
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, r.Create(ctx, family.Child(parent, req.Name+"-summary", "", data))
	}
	summary.Data = data
	return reconcile.Result{}, r.Update(ctx, &summary)
}

func main() {
	family.Run("stamper", func(c client.Client) reconcile.Reconciler { return &stamper{c} })
}
