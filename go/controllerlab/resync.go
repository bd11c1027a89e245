package controllerlab

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A resync on the parent's request: every controller is handed every object of its For kind in the
// cache again, as its For event handler would be after a restart (an object of the initial list),
// so the controller's predicates and handler decide what is enqueued, into its own queue, at the
// priority a restart gives. An object a predicate filters out would not be reconciled after a
// restart either; reconciling it anyway could make a controller act on objects it never owns.
// Keys reached through Owns and Watches come from the For objects' reconciles, as after a restart.
// A controller whose sources have not started yet has nothing to resync.

// resync runs on its own goroutine: listing may wait for a cache that has not synced yet.
func (l *lab) resync() {
	l.mu.Lock()
	controllers := append([]*labController(nil), l.controllers...)
	l.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-l.session.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	for _, c := range controllers {
		c.mu.Lock()
		handlers := append([]*labHandler(nil), c.forHandlers...)
		c.mu.Unlock()
		for _, h := range handlers {
			for _, obj := range h.informer.objects(ctx) {
				h.redeliver(obj)
			}
		}
	}
}

// redeliver hands obj to the controller's handler as an object of the initial list, noting a
// RESYNC trigger via "resync" for whatever the handler enqueues. The informer calls each handler
// from one goroutine; this is a second one, taking turns with it (one delivery at a time, so the
// predicate that says no names itself on the right event).
func (h *labHandler) redeliver(obj client.Object) {
	c := h.controller
	gid := goroutineID()
	note := &eventNote{controller: c, via: h.via, kind: createEvent, obj: obj, trigger: TriggerDelta{
		Type: "RESYNC", Kind: h.informer.gvk.Kind, APIVersion: h.informer.gvk.GroupVersion().String(),
		Key: objectKey(obj), ResourceVersion: obj.GetResourceVersion(), Via: "resync", At: nowMs(),
	}}
	h.informer.lab.deliveryStarts(gid, note)
	h.delivering.Lock()
	h.current = note
	h.inner.OnAdd(obj, true)
	h.current = nil
	h.delivering.Unlock()
	h.informer.lab.deliveryEnds(gid)
	note.ended(h)
}

// objects is everything the informer holds: from its store when it has one (no copies), otherwise
// listed through the manager's cache, as the reconciler would read them.
func (i *labInformer) objects(ctx context.Context) []client.Object {
	var out []client.Object
	if s, ok := i.Informer.(interface{ GetStore() toolscache.Store }); ok {
		for _, item := range s.GetStore().List() {
			if obj, ok := item.(client.Object); ok {
				out = append(out, obj)
			}
		}
		return out
	}
	list := i.newList()
	if list == nil || i.lab.reader == nil || i.lab.reader.List(ctx, list) != nil {
		return nil
	}
	_ = meta.EachListItem(list, func(o runtime.Object) error {
		if obj, ok := o.(client.Object); ok {
			out = append(out, obj)
		}
		return nil
	})
	return out
}

// newList is an empty list of the informer's objects, in the form the informer holds them.
func (i *labInformer) newList() client.ObjectList {
	listKind := i.gvk.GroupVersion().WithKind(i.gvk.Kind + "List")
	switch i.proto.(type) {
	case *unstructured.Unstructured:
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(listKind)
		return list
	case *metav1.PartialObjectMetadata:
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(listKind)
		return list
	}
	if i.lab.scheme == nil {
		return nil
	}
	o, err := i.lab.scheme.New(listKind)
	if err != nil {
		return nil
	}
	list, _ := o.(client.ObjectList)
	return list
}
