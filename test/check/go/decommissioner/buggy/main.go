// The decommissioner (nodes): a parent's nodes are added at once and taken away one at a time.
//
// Planted bug (unobserved state): it decides to take a node away from the parent's update event,
// when the event's old and new objects differ by exactly one node (a step down it can follow), and
// never from the parent as it is. Two steps down that reach it as one event (3 → 1), or a relist
// or a restart across a step, are no such event: the nodes above what is asked stay for good
// (Sieve found this in casskop: a scale-down whose intermediate size was never observed).
package main

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/test/check/go/decommissioner/nodes"
)

func main() {
	own := handler.EnqueueRequestForObject{}
	nodes.Run(
		func(context.Context, client.Client, *corev1.ConfigMap, int) error { return nil },
		handler.Funcs{
			CreateFunc:  own.Create,
			DeleteFunc:  own.Delete,
			GenericFunc: own.Generic,
			UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				own.Update(ctx, e, q)
				was, now := nodes.Asked(e.ObjectOld.(*corev1.ConfigMap)), nodes.Asked(e.ObjectNew.(*corev1.ConfigMap))
				if was-now == 1 {
					name := e.ObjectNew.GetName() + nodes.Decommission + strconv.Itoa(now)
					q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: e.ObjectNew.GetNamespace(), Name: name}})
				}
			},
		},
	)
}
