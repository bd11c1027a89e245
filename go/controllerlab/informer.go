package controllerlab

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// The manager's cache, wrapped: informers handed to controllers' sources come back wrapped, so each
// event is forwarded once as a delta (with the object when mirroring), shows up as an informer
// probe, and is remembered as "being delivered" while the controller's handler maps it to keys.

type labCache struct {
	cache.Cache
	lab   *lab
	reads readChecker
}

func newLabCache(inner cache.Cache, l *lab) *labCache {
	kindOf := func(obj runtime.Object) (schema.GroupVersionKind, error) { return apiutil.GVKForObject(obj, l.scheme) }
	return &labCache{Cache: inner, lab: l, reads: readChecker{written: l.written, kindOf: kindOf}}
}

// Get and List: a reconcile may read the cache itself; its reads are checked as the client's are.
func (c *labCache) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Cache.Get(ctx, key, obj, opts...)
	c.reads.afterGet(ctx, key, obj, err)
	return err
}

func (c *labCache) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	err := c.Cache.List(ctx, list, opts...)
	c.reads.afterList(ctx, list, err)
	return err
}

func (c *labCache) GetInformer(ctx context.Context, obj client.Object, opts ...cache.InformerGetOption) (cache.Informer, error) {
	i, err := c.Cache.GetInformer(ctx, obj, opts...)
	gvk, gvkErr := apiutil.GVKForObject(obj, c.lab.scheme)
	if err != nil {
		if gvkErr == nil {
			c.lab.reportUnserved(gvk, err)
		}
		return i, err
	}
	if gvkErr != nil {
		return i, nil
	}
	return c.lab.informer(gvk, obj, i), nil
}

func (c *labCache) GetInformerForKind(ctx context.Context, gvk schema.GroupVersionKind, opts ...cache.InformerGetOption) (cache.Informer, error) {
	i, err := c.Cache.GetInformerForKind(ctx, gvk, opts...)
	if err != nil {
		c.lab.reportUnserved(gvk, err)
		return i, err
	}
	var proto client.Object
	if o, err := c.lab.scheme.New(gvk); err == nil {
		proto, _ = o.(client.Object)
	}
	if proto == nil {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(gvk)
		proto = u
	}
	return c.lab.informer(gvk, proto, i), nil
}

// labInformer is one informer of the manager, as handed to a source. A cache may hand out a new
// handle for the same informer on each call (the multi-namespace cache does), so what Controller
// Lab knows about the informer lives in informerState, one per kind.
type labInformer struct {
	cache.Informer
	lab *lab
	*informerState
}

type informerState struct {
	gvk   schema.GroupVersionKind
	name  string
	proto client.Object
	mu    sync.Mutex
	// The highest resourceVersion delivered, and the last event forwarded per key.
	lastRV   string
	lastSeen map[string]seenEvent
	// What each handler registered on it has been given (under lab.mu), for the handled report.
	views []*handlerView
}

type seenEvent struct {
	typ, rv string
}

// informer returns the one wrapper of this kind's informer, starting its sync report on first use.
func (l *lab) informer(gvk schema.GroupVersionKind, proto client.Object, inner cache.Informer) *labInformer {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, known := l.informers[gvk]
	if !known {
		st = &informerState{gvk: gvk, name: informerName(l.mapper, gvk), proto: proto, lastSeen: map[string]seenEvent{}}
		l.informers[gvk] = st
	}
	inf := &labInformer{Informer: inner, lab: l, informerState: st}
	if !known {
		go inf.reportSynced()
	}
	return inf
}

// informerName is the resource as Controller Lab's informers name theirs: `configmaps`,
// `deployments.apps`.
func informerName(mapper meta.RESTMapper, gvk schema.GroupVersionKind) string {
	if mapper != nil {
		if m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
			return m.Resource.GroupResource().String()
		}
	}
	plural := strings.ToLower(gvk.Kind) + "s"
	if gvk.Group == "" {
		return plural
	}
	return plural + "." + gvk.Group
}

// reportSynced sends a `synced` probe (resourceVersion, items) once the informer has synced.
func (i *labInformer) reportSynced() {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !i.HasSynced() {
		select {
		case <-i.lab.session.closed:
			return
		case <-tick.C:
		}
		if i.IsStopped() {
			return
		}
	}
	p := Probe{At: nowMs(), Informer: i.name, Kind: "synced"}
	if v, ok := i.Informer.(interface{ LastSyncResourceVersion() string }); ok {
		p.ResourceVersion = v.LastSyncResourceVersion()
	}
	if s, ok := i.Informer.(interface{ GetStore() toolscache.Store }); ok {
		n := len(s.GetStore().ListKeys())
		p.Items = &n
	}
	i.mu.Lock()
	if p.ResourceVersion == "" {
		p.ResourceVersion = i.lastRV
	}
	i.mu.Unlock()
	i.lab.session.send(probeMessage{Type: "probe", Probe: p})
}

// cached is the object the informer holds for key (nil: not in the cache). Read from the
// informer's store without a copy when it has one (it is only marshalled); otherwise through the
// manager's cache, as the reconciler itself would read it.
func (i *labInformer) cached(ctx context.Context, key string) client.Object {
	if s, ok := i.Informer.(interface{ GetStore() toolscache.Store }); ok {
		item, exists, err := s.GetStore().GetByKey(key)
		if err != nil || !exists {
			return nil
		}
		obj, _ := item.(client.Object)
		return obj
	}
	if i.lab.reader == nil || i.proto == nil {
		return nil
	}
	obj, ok := i.proto.DeepCopyObject().(client.Object)
	if !ok {
		return nil
	}
	ns, name := splitKey(key)
	if err := i.lab.reader.Get(ctx, namespacedName(ns, name), obj); err != nil {
		return nil
	}
	return obj
}

func (i *labInformer) AddEventHandler(h toolscache.ResourceEventHandler) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.Informer.AddEventHandler(i.wrap(h))
}

func (i *labInformer) AddEventHandlerWithResyncPeriod(h toolscache.ResourceEventHandler, period time.Duration) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.Informer.AddEventHandlerWithResyncPeriod(i.wrap(h), period)
}

func (i *labInformer) AddEventHandlerWithOptions(h toolscache.ResourceEventHandler, options toolscache.HandlerOptions) (toolscache.ResourceEventHandlerRegistration, error) {
	return i.Informer.AddEventHandlerWithOptions(i.wrap(h), options)
}

func (i *labInformer) wrap(h toolscache.ResourceEventHandler) toolscache.ResourceEventHandler {
	c, via := i.lab.classifyHandler(h)
	i.lab.written.watch(i.gvk.GroupKind())
	lh := &labHandler{inner: h, informer: i, controller: c, via: via}
	if c != nil {
		lh.typedPredicates = installPredicates(h, lh)
		c.registered(lh)
	}
	i.lab.mu.Lock()
	i.views = append(i.views, &lh.view)
	i.lab.mu.Unlock()
	i.lab.session.handledChanged()
	return lh
}

// forward sends an event as a delta and a probe unless another handler on this informer already
// did (every registration sees every event, and a late one is replayed the current objects).
func (i *labInformer) forward(typ string, obj client.Object) {
	key := objectKey(obj)
	rv := obj.GetResourceVersion()
	i.mu.Lock()
	if prev, ok := i.lastSeen[key]; ok && prev.rv == rv && prev.typ == typ {
		i.mu.Unlock()
		return
	}
	i.lastSeen[key] = seenEvent{typ: typ, rv: rv}
	if compareResourceVersions(rv, i.lastRV) > 0 {
		i.lastRV = rv
	}
	// The sequence number is taken under the lock so deltas of one informer leave in order.
	seq := i.lab.deltaSeq.Add(1)
	d := CacheDelta{Seq: seq, Type: typ, APIVersion: i.gvk.GroupVersion().String(), Kind: i.gvk.Kind, Key: key, ResourceVersion: rv}
	if i.lab.session.mirror {
		d.Object = newKubeObject(obj, i.gvk)
	}
	i.lab.session.send(deltaMessage{Type: "delta", Delta: d})
	i.mu.Unlock()
	i.lab.session.send(probeMessage{Type: "probe", Probe: Probe{At: nowMs(), Informer: i.name, Kind: "event", Type: typ, Key: key, ResourceVersion: rv}})
}

func objectKey(obj client.Object) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}

// labHandler is one event handler registration (one source of one controller, usually).
type labHandler struct {
	inner      toolscache.ResourceEventHandler
	informer   *labInformer
	controller *labController
	via        string
	// A typed source's predicates, which could not be wrapped (see predicates.go).
	typedPredicates reflect.Value
	// One delivery at a time (the informer's and a resync's), and the event it is delivering.
	delivering sync.Mutex
	current    *eventNote
	// What it has been given, once it returned (see handled.go).
	view handlerView
}

func (h *labHandler) OnAdd(obj any, isInInitialList bool) {
	defer h.deliver("ADDED", "ADDED", nil, obj)()
	h.inner.OnAdd(obj, isInInitialList)
}

func (h *labHandler) OnUpdate(oldObj, newObj any) {
	trigger := "MODIFIED"
	if o, ok := oldObj.(client.Object); ok {
		if n, ok := newObj.(client.Object); ok && o.GetResourceVersion() == n.GetResourceVersion() {
			// A resync re-delivers what the cache already holds: a trigger, not a change.
			trigger = "RESYNC"
		}
	}
	defer h.deliver("MODIFIED", trigger, oldObj, newObj)()
	h.inner.OnUpdate(oldObj, newObj)
}

func (h *labHandler) OnDelete(obj any) {
	defer h.deliver("DELETED", "DELETED", nil, obj)()
	h.inner.OnDelete(obj)
}

// deliver forwards the event and marks it as being delivered on this goroutine until the returned
// func runs (after the controller's handler has enqueued whatever it maps to), which sends the
// event's fate when it enqueued nothing.
func (h *labHandler) deliver(deltaType, triggerType string, old, raw any) func() {
	if tomb, ok := raw.(toolscache.DeletedFinalStateUnknown); ok {
		raw = tomb.Obj
	}
	obj, ok := raw.(client.Object)
	if !ok {
		return func() {}
	}
	// Once the handler returned: its view takes the event in.
	handled := func() {
		h.view.given(objectKey(obj), obj.GetResourceVersion(), deltaType == "DELETED")
		h.informer.lab.session.handledChanged()
	}
	if triggerType != "RESYNC" {
		h.informer.forward(deltaType, obj)
	}
	// After forward: a write answered meanwhile finds this event there (lab.rememberWrite).
	h.informer.lab.written.observed(h.informer.gvk.GroupKind(), obj, deltaType == "DELETED")
	c := h.controller
	if c == nil {
		return handled
	}
	rv := obj.GetResourceVersion()
	c.observedRV(rv)
	gid := goroutineID()
	note := &eventNote{controller: c, via: h.via, kind: eventKindOf(deltaType), old: old, obj: obj, trigger: TriggerDelta{
		Type: triggerType, Kind: h.informer.gvk.Kind, APIVersion: h.informer.gvk.GroupVersion().String(),
		Key: objectKey(obj), ResourceVersion: rv, Via: h.via, At: nowMs(),
	}}
	h.informer.lab.deliveryStarts(gid, note)
	h.delivering.Lock()
	h.current = note
	return func() {
		h.current = nil
		h.delivering.Unlock()
		h.informer.lab.deliveryEnds(gid)
		note.ended(h)
		handled()
	}
}
