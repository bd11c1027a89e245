package controllerlab

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A controller that watches a kind the cluster does not serve (its CRD is not installed) waits in
// controller-runtime for CacheSyncTimeout, two minutes by default, before it says so. The cache
// wrapper sees the "no matches for kind" error on the first try and tells the parent at once, once
// per kind, as an informer error probe.

// reportUnserved sends an error probe when err says gvk is not served; other errors pass unseen.
func (l *lab) reportUnserved(gvk schema.GroupVersionKind, err error) {
	if err == nil || !meta.IsNoMatchError(err) {
		return
	}
	l.mu.Lock()
	told := l.unserved[gvk]
	if l.unserved == nil {
		l.unserved = map[schema.GroupVersionKind]bool{}
	}
	l.unserved[gvk] = true
	l.mu.Unlock()
	if told {
		return
	}
	l.session.send(probeMessage{Type: "probe", Probe: Probe{
		At:       nowMs(),
		Informer: informerName(nil, gvk),
		Kind:     "error",
		Code:     404,
		Reason:   "NotServed",
		Message:  unservedMessage(gvk),
	}})
}

func unservedMessage(gvk schema.GroupVersionKind) string {
	return fmt.Sprintf("the cluster does not serve kind %s (%s)", gvk.Kind, gvk.GroupVersion())
}
