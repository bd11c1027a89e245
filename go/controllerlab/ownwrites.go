package controllerlab

import (
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ownWrites remembers, per object, the last write this process made to it (the resourceVersion the
// server answered, or that it deleted the object) until the object's informer delivers that version
// or a newer one, or the deletion: until then a read from the cache may return the object as it was
// before the write, which is what a stale read is.
//
// Only kinds whose informer events reach Controller Lab (a controller watches them) are kept: for
// them every entry is forgotten once the cache catches up, so the map holds only the writes in
// flight and a read costs one atomic load when there are none. A kind nobody watches could never be
// forgotten, and a read of it may not come from a cache at all.
type ownWrites struct {
	// len(byObject), read without the lock so reads skip everything when nothing is in flight.
	size atomic.Int64

	mu       sync.Mutex
	byObject map[objectRef]ownWrite
	// Entries per kind, so a List of a kind with none skips its items.
	perKind map[schema.GroupKind]int
	watched map[schema.GroupKind]bool
}

type objectRef struct {
	kind            schema.GroupKind
	namespace, name string
}

type ownWrite struct {
	verb string
	// The resourceVersion the server answered; "" for a delete.
	rv string
	// The reconcile (seq) that wrote; 0 outside any reconcile.
	by int64
	// A delete's object, when the request named its uid: a later object of the same name is another.
	uid types.UID
}

func newOwnWrites() *ownWrites {
	return &ownWrites{byObject: map[objectRef]ownWrite{}, perKind: map[schema.GroupKind]int{}, watched: map[schema.GroupKind]bool{}}
}

func refOf(kind schema.GroupKind, obj client.Object) objectRef {
	return objectRef{kind: kind, namespace: obj.GetNamespace(), name: obj.GetName()}
}

// watch: the events of this kind reach Controller Lab (a controller's source registered a handler).
func (w *ownWrites) watch(kind schema.GroupKind) {
	w.mu.Lock()
	w.watched[kind] = true
	w.mu.Unlock()
}

// wrote notes a successful write as the server answered it (obj after the call). Answers that are
// not decimal resourceVersions are not kept: they could not be compared.
func (w *ownWrites) wrote(kind schema.GroupKind, obj client.Object, verb string, by int64) {
	entry := ownWrite{verb: verb, by: by}
	if verb == "delete" {
		entry.uid = obj.GetUID()
	} else if entry.rv = obj.GetResourceVersion(); !isDigits(entry.rv) {
		return
	}
	ref := refOf(kind, obj)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.watched[kind] {
		return
	}
	prev, had := w.byObject[ref]
	if had && entry.rv != "" && prev.rv != "" && compareResourceVersions(prev.rv, entry.rv) > 0 {
		// Two workers' answers arriving out of order: the newer one stands.
		return
	}
	if !had {
		w.perKind[kind]++
		w.size.Add(1)
	}
	w.byObject[ref] = entry
}

// observed: the informer delivered obj (deleted: its deletion), so the cache holds it at least as
// new as that. A write the cache has caught up with is forgotten.
func (w *ownWrites) observed(kind schema.GroupKind, obj client.Object, deleted bool) {
	w.delivered(refOf(kind, obj), obj.GetResourceVersion(), obj.GetDeletionTimestamp() != nil, deleted)
}

// delivered: the informer delivered the object at rv (terminating: with a deletionTimestamp;
// deleted: its deletion).
func (w *ownWrites) delivered(ref objectRef, rv string, terminating, deleted bool) {
	if w.size.Load() == 0 {
		return
	}
	w.mu.Lock()
	if e, ok := w.byObject[ref]; ok && (deleted || e.caughtUpBy(rv, terminating)) {
		w.forget(ref)
	}
	w.mu.Unlock()
}

func (w *ownWrites) forget(ref objectRef) {
	delete(w.byObject, ref)
	if w.perKind[ref.kind]--; w.perKind[ref.kind] <= 0 {
		delete(w.perKind, ref.kind)
	}
	w.size.Add(-1)
}

// caughtUpBy: a cache holding the object at rv no longer returns the state before this write.
func (e ownWrite) caughtUpBy(rv string, terminating bool) bool {
	if e.verb == "delete" {
		return terminating
	}
	return !isDigits(rv) || compareResourceVersions(rv, e.rv) >= 0
}

// staleAgainst is the write obj was read stale against, if any. The caller holds mu.
func (w *ownWrites) staleAgainst(ref objectRef, obj client.Object) (ownWrite, bool) {
	e, ok := w.byObject[ref]
	if !ok {
		return e, false
	}
	if e.verb == "delete" {
		// Deleted: the server's copy is gone or carries a deletionTimestamp, unless this is another
		// object of the same name.
		sameObject := e.uid == "" || obj.GetUID() == "" || e.uid == obj.GetUID()
		return e, sameObject && obj.GetDeletionTimestamp() == nil
	}
	rv := obj.GetResourceVersion()
	return e, isDigits(rv) && compareResourceVersions(rv, e.rv) < 0
}

// lastAnswer is the resourceVersion this process's last write of the object was answered with ("":
// none in flight).
func (w *ownWrites) lastAnswer(kind schema.GroupKind, obj client.Object) string {
	if w.size.Load() == 0 {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.byObject[refOf(kind, obj)].rv
}

// rememberWrite keeps a successful write until the cache catches up with it, unless it already
// has: the informer may deliver the write's own event before the answer reaches the caller, and
// nothing would come later to forget it. (The informer notes each event before it tells
// ownWrites, so one of the two sees the other.)
func (l *lab) rememberWrite(gvk schema.GroupVersionKind, obj client.Object, verb string, by int64) {
	l.written.wrote(gvk.GroupKind(), obj, verb, by)
	if seen, ok := l.lastEvent(gvk, objectKey(obj)); ok {
		l.written.delivered(refOf(gvk.GroupKind(), obj), seen.rv, false, seen.typ == "DELETED")
	}
}
