// Package nodes is the decommissioner, but for how it takes nodes away. A parent asks for
// `data.nodes` nodes; each is a child `<parent>-node-<i>` (i from 0). Nodes are added at once, and
// taken away one at a time, the highest first (a Cassandra rack is scaled down node by node, each
// decommissioned before the next).
package nodes

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/controller-lab/controller-lab/go/controllerlab"
	"github.com/controller-lab/controller-lab/test/check/go/family"
)

// Decommission marks a request for node N of a parent: `<parent>/decommission-N`.
const Decommission = "/decommission-"

// Shrink takes away the nodes of parent beyond what it asks for, if this reconcile should.
type Shrink func(ctx context.Context, c client.Client, parent *corev1.ConfigMap, asked int) error

type decommissioner struct {
	client.Client
	shrink Shrink
}

func (r *decommissioner) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	if name, node, ok := strings.Cut(req.Name, Decommission); ok {
		return reconcile.Result{}, client.IgnoreNotFound(r.Delete(ctx, &corev1.ConfigMap{ObjectMeta: ctrl.ObjectMeta{Namespace: req.Namespace, Name: name + "-node-" + node}}))
	}
	parent, err := family.Parent(ctx, r, req)
	if parent == nil || err != nil {
		return reconcile.Result{}, err
	}
	asked := Asked(parent)
	for i := 0; i < asked; i++ {
		if err := client.IgnoreAlreadyExists(r.Create(ctx, family.Child(parent, NodeName(parent.Name, i), "", map[string]string{"node": strconv.Itoa(i)}))); err != nil {
			return reconcile.Result{}, err
		}
	}
	return reconcile.Result{}, r.shrink(ctx, r, parent, asked)
}

// Asked is how many nodes parent asks for.
func Asked(parent *corev1.ConfigMap) int {
	n, _ := strconv.Atoi(parent.Data["nodes"])
	return n
}

// NodeName is the name of node i of the parent named parent.
func NodeName(parent string, i int) string { return fmt.Sprintf("%s-node-%d", parent, i) }

// Run starts a manager with the decommissioner; events of parents go through onEvent.
func Run(shrink Shrink, onEvent handler.EventHandler) {
	ctrl.SetLogger(zap.New())
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		panic(err)
	}
	mgr = controllerlab.Wrap(mgr)
	err = ctrl.NewControllerManagedBy(mgr).Named("decommissioner").
		WatchesRawSource(source.Kind(mgr.GetCache(), client.Object(&corev1.ConfigMap{}), onEvent)).
		Complete(&decommissioner{Client: mgr.GetClient(), shrink: shrink})
	if err != nil {
		panic(err)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		panic(err)
	}
}
