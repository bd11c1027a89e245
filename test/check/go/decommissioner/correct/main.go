// The decommissioner, fixed: each reconcile compares the nodes there are with what the parent
// asks for now and takes away those above it, the highest first, whichever sizes it was shown on
// the way.
package main

import (
	"context"
	"sort"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	"github.com/controller-lab/controller-lab/test/check/go/decommissioner/nodes"
	"github.com/controller-lab/controller-lab/test/check/go/family"
)

func main() {
	nodes.Run(func(ctx context.Context, c client.Client, parent *corev1.ConfigMap, asked int) error {
		children, err := family.Children(ctx, c, parent)
		if err != nil {
			return err
		}
		var above []int
		for _, child := range children {
			if i, err := strconv.Atoi(child.Data["node"]); err == nil && i >= asked {
				above = append(above, i)
			}
		}
		sort.Sort(sort.Reverse(sort.IntSlice(above)))
		for _, i := range above {
			node := &corev1.ConfigMap{}
			node.Namespace, node.Name = parent.Namespace, nodes.NodeName(parent.Name, i)
			if err := client.IgnoreNotFound(c.Delete(ctx, node)); err != nil {
				return err
			}
		}
		return nil
	}, &handler.EnqueueRequestForObject{})
}
