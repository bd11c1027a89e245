// The historian: it records every `data.version` a parent goes through in the parent's
// check.example.com/history annotation (`1,2,3`).
//
// Planted bug (unobserved state): it is edge-triggered — it appends the version it sees now when
// that is not the last one recorded. A version it never observes (two changes that reach it as
// one, a relist across them) is missing from the history for good.
package main

import (
	"context"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/family"
)

const historyAnnotation = "check.example.com/history"

type historian struct{ client.Client }

func (r *historian) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil || parent.Data["version"] == "" {
		return reconcile.Result{}, err
	}
	version := parent.Data["version"]
	var history []string
	if recorded := parent.Annotations[historyAnnotation]; recorded != "" {
		history = strings.Split(recorded, ",")
	}
	if len(history) > 0 && history[len(history)-1] == version {
		return reconcile.Result{}, nil
	}
	history = append(history, version)
	return reconcile.Result{}, r.Update(ctx, family.Annotated(parent, historyAnnotation, strings.Join(history, ",")))
}

func main() {
	family.Run("historian", func(c client.Client) reconcile.Reconciler { return &historian{c} })
}
