package controllerlab

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Whether a write changed anything: the API server stores nothing for a write that changes nothing
// and answers the resourceVersion the object already had. So a write changed the object when its
// answer is newer than the resourceVersion the object had before, which the request itself carries
// for an update (refused at any other) and which, for a patch, is bounded from below by what the
// request carried, what the informer last delivered and what this process's last write of it was
// answered with: none of these is newer than the server's, so the newest of them is the closest known.

// previousResourceVersion is the object's resourceVersion before a write of verb, as far as known.
func (l *lab) previousResourceVersion(gvk schema.GroupVersionKind, obj client.Object, verb string) string {
	sent := obj.GetResourceVersion()
	if sent != "" && (verb == "update" || verb == "updateStatus") {
		return sent
	}
	previous := sent
	for _, rv := range []string{l.lastDelivered(gvk, objectKey(obj)), l.written.lastAnswer(gvk.GroupKind(), obj)} {
		if isDigits(rv) && (!isDigits(previous) || compareResourceVersions(rv, previous) > 0) {
			previous = rv
		}
	}
	return previous
}

// lastDelivered is the resourceVersion at which the informer of gvk last delivered key ("": none,
// or the object's deletion).
func (l *lab) lastDelivered(gvk schema.GroupVersionKind, key string) string {
	seen, _ := l.lastEvent(gvk, key)
	if seen.typ == "DELETED" {
		return ""
	}
	return seen.rv
}

// lastEvent is the informer of gvk's last event for key, if it delivered any.
func (l *lab) lastEvent(gvk schema.GroupVersionKind, key string) (seenEvent, bool) {
	l.mu.Lock()
	st := l.informers[gvk]
	l.mu.Unlock()
	if st == nil {
		return seenEvent{}, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	seen, ok := st.lastSeen[key]
	return seen, ok
}

// changedBy says whether a successful write changed the object (nil: not known).
func changedBy(verb, previous, answered string) *bool {
	changed := true
	switch {
	case verb == "create":
	case !isDigits(previous) || !isDigits(answered):
		return nil
	default:
		changed = compareResourceVersions(answered, previous) > 0
	}
	return &changed
}
