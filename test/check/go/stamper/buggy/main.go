// The stamper: for each parent it keeps a summary child, `<parent>-summary`, listing the parent's
// data keys.
//
// Planted bug (not idempotent): it stamps the summary with the time of every reconcile
// (`data.syncedAt`), so a resync, a restart or any event writes the summary again although
// nothing changed: needless writes, and a resourceVersion that never settles.
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
	data := map[string]string{
		"keys":     strings.Join(slices.Sorted(maps.Keys(parent.Data)), ","),
		"syncedAt": time.Now().UTC().Format(time.RFC3339Nano),
	}
	var summary corev1.ConfigMap
	err = r.Get(ctx, types.NamespacedName{Namespace: req.Namespace, Name: req.Name + "-summary"}, &summary)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, r.Create(ctx, family.Child(parent, req.Name+"-summary", "", data))
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	summary.Data = data
	return reconcile.Result{}, r.Update(ctx, &summary)
}

func main() {
	family.Run("stamper", func(c client.Client) reconcile.Reconciler { return &stamper{c} })
}
