package controllerlab

import (
	"context"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What a reconcile reads through the manager's client, or its cache used as a reader, is checked
// against this process's own writes still in flight (ownWrites): a Get or a List item older than
// one of them, or a Get that finds nothing where this process created or updated an object, read
// stale state. The manager's API reader (mgr.GetAPIReader) is not checked: it reads the API server
// itself, which always answers at least the version it answered a write with. Reads the client
// sends to the API server (kinds it does not cache) go through the same check and are never older.
//
// One window is not closed: the informer updates its store before it delivers the event, so a
// delete made by someone else just after this process's write can make a Get find nothing before
// the delete is delivered here, and that read is reported although the cache was current.

// maxStaleReads bounds what one reconcile reports: a loop reading the same stale List is one finding.
const maxStaleReads = 100

// readChecker checks what reads returned; the client and the cache wrappers each have one.
type readChecker struct {
	written *ownWrites
	kindOf  func(runtime.Object) (schema.GroupVersionKind, error)
}

func (r readChecker) afterGet(ctx context.Context, key client.ObjectKey, obj client.Object, err error) {
	if r.written.size.Load() == 0 {
		return
	}
	run := inFlightFrom(ctx)
	if run == nil || (err != nil && !apierrors.IsNotFound(err)) {
		return
	}
	gvk, kerr := r.kindOf(obj)
	if kerr != nil {
		return
	}
	ref := objectRef{kind: gvk.GroupKind(), namespace: key.Namespace, name: key.Name}
	w := r.written
	w.mu.Lock()
	var write ownWrite
	var stale bool
	if err != nil {
		// Nothing in the cache where this process created or updated an object.
		write, stale = w.byObject[ref]
		stale = stale && write.verb != "delete"
	} else {
		write, stale = w.staleAgainst(ref, obj)
	}
	w.mu.Unlock()
	if !stale {
		return
	}
	read := staleReadOf(gvk, ref, write)
	if err != nil {
		read.NotFound = true
	} else {
		read.ReadResourceVersion = obj.GetResourceVersion()
	}
	run.staleRead(read)
}

func (r readChecker) afterList(ctx context.Context, list client.ObjectList, err error) {
	if err != nil || r.written.size.Load() == 0 {
		return
	}
	run := inFlightFrom(ctx)
	if run == nil {
		return
	}
	gvk, kerr := r.kindOf(list)
	if kerr != nil {
		return
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	kind := gvk.GroupKind()
	var found []StaleRead
	w := r.written
	w.mu.Lock()
	if w.perKind[kind] > 0 {
		_ = meta.EachListItem(list, func(o runtime.Object) error {
			obj, ok := o.(client.Object)
			if !ok {
				return nil
			}
			ref := refOf(kind, obj)
			if write, stale := w.staleAgainst(ref, obj); stale {
				read := staleReadOf(gvk, ref, write)
				read.ReadResourceVersion = obj.GetResourceVersion()
				found = append(found, read)
			}
			return nil
		})
	}
	w.mu.Unlock()
	for _, read := range found {
		run.staleRead(read)
	}
}

func staleReadOf(gvk schema.GroupVersionKind, ref objectRef, write ownWrite) StaleRead {
	return StaleRead{
		APIVersion: gvk.GroupVersion().String(), Kind: gvk.Kind, Namespace: ref.namespace, Name: ref.name,
		WroteResourceVersion: write.rv, WroteBy: write.by, Verb: write.verb,
	}
}

// staleRead notes a stale read on the reconcile, once per object and version read.
func (r *inFlight) staleRead(read StaleRead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.staleReads) >= maxStaleReads {
		return
	}
	for _, seen := range r.staleReads {
		if seen.Kind == read.Kind && seen.APIVersion == read.APIVersion && seen.Namespace == read.Namespace && seen.Name == read.Name &&
			seen.ReadResourceVersion == read.ReadResourceVersion && seen.NotFound == read.NotFound {
			return
		}
	}
	r.staleReads = append(r.staleReads, read)
}
