package controllerlab

import (
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// lab is the attached state of one manager: its controllers, its informers, and the events in
// flight between an informer and a workqueue. It exists only while Controller Lab is attached.
type lab struct {
	session *session
	scheme  *runtime.Scheme
	mapper  meta.RESTMapper

	// 1-based, in start order for this run (the `#17` in the debugger); a restarted process goes on
	// from its predecessor's (EnvReconcileSeq).
	reconcileSeq atomic.Int64
	// Position in the forwarded delta stream; a reconcile records where it started.
	deltaSeq atomic.Int64
	// This process's writes the cache has not caught up with yet.
	written *ownWrites

	mu          sync.Mutex
	controllers []*labController
	// Our queues by address, to tell which controller an event handler registration feeds.
	byQueue   map[uintptr]*labController
	informers map[schema.GroupVersionKind]*informerState
	// Kinds reported as not served, each once.
	unserved map[schema.GroupVersionKind]bool
	// The manager's own cache, to read a request's object when an informer has no store to read.
	reader client.Reader
	synced bool
	// What `synced` still waits for besides the controllers (see holdSynced).
	syncHolds int
	lastIdle  *bool

	// The informer event each goroutine is delivering right now, keyed by goroutine id; the count
	// spares the goroutine id lookup for adds made while no event is being delivered.
	eventsMu   sync.Mutex
	events     map[uint64]*eventNote
	delivering atomic.Int64
}

// eventNote is an informer event being delivered to one controller's handler, and what became of
// it there so far (see fates.go).
type eventNote struct {
	controller *labController
	trigger    TriggerDelta
	// The source: "for", "owns" or "watches" (the trigger's Via is "resync" for a resync).
	via string
	// The event as predicates see it: which method asks, and its objects.
	kind     eventKind
	old, obj any
	// Requests the handler added; the predicate that said no.
	requests   int
	filteredBy string
}

func newLab(s *session, scheme *runtime.Scheme, mapper meta.RESTMapper) *lab {
	l := &lab{
		session:   s,
		written:   newOwnWrites(),
		scheme:    scheme,
		mapper:    mapper,
		byQueue:   map[uintptr]*labController{},
		informers: map[schema.GroupVersionKind]*informerState{},
		events:    map[uint64]*eventNote{},
	}
	s.snapshots = l.snapshots
	s.handled = l.handledMessage
	s.onResync = func() { go l.resync() }
	l.reconcileSeq.Store(envSeq(EnvReconcileSeq))
	l.deltaSeq.Store(envSeq(EnvDeltaSeq))
	return l
}

func (l *lab) deliveryStarts(gid uint64, note *eventNote) {
	l.delivering.Add(1)
	l.eventsMu.Lock()
	l.events[gid] = note
	l.eventsMu.Unlock()
}

func (l *lab) deliveryEnds(gid uint64) {
	l.eventsMu.Lock()
	delete(l.events, gid)
	l.eventsMu.Unlock()
	l.delivering.Add(-1)
}

// eventOf is the event the calling goroutine is delivering to controller c, if any.
func (l *lab) eventOf(c *labController) *eventNote {
	if l.delivering.Load() == 0 {
		return nil
	}
	gid := goroutineID()
	l.eventsMu.Lock()
	note := l.events[gid]
	l.eventsMu.Unlock()
	if note == nil || note.controller != c {
		return nil
	}
	return note
}

func (l *lab) controllerByQueue(addr uintptr) *labController {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.byQueue[addr]
}

// workersStarted is called once per controller when its first worker asks for a key: its caches
// have synced. Its shape goes out unless it did already (see announce); `synced` once every
// instrumented controller got there.
func (l *lab) workersStarted(c *labController) {
	c.announce()
	l.sendSyncedWhenReady()
	l.session.queueChanged(c)
}

// sendSyncedWhenReady sends `synced`, once, when every instrumented controller's workers started
// and nothing holds it back.
func (l *lab) sendSyncedWhenReady() {
	l.mu.Lock()
	all := !l.synced && l.syncHolds == 0
	for _, other := range l.controllers {
		if !other.started.Load() {
			all = false
		}
	}
	if all {
		l.synced = true
	}
	l.mu.Unlock()
	if all {
		l.session.send(syncedMessage{Type: "synced"})
	}
}

// holdSynced keeps `synced` back until release is called. The parent starts the scenario on it,
// and its writes must find what the program installs for itself (its webhook configurations)
// there already, as a cluster has them before anyone applies the samples.
func (l *lab) holdSynced() (release func()) {
	l.mu.Lock()
	l.syncHolds++
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			l.syncHolds--
			l.mu.Unlock()
			l.sendSyncedWhenReady()
		})
	}
}

// snapshots runs on the writer goroutine: one queue snapshot per changed controller, then `idle`
// when the whole manager became idle or busy (nothing queued, processing or waiting anywhere).
func (l *lab) snapshots(dirty map[*labController]struct{}) []any {
	out := make([]any, 0, len(dirty)+1)
	for c := range dirty {
		out = append(out, queueMessage{Type: "queue", Controller: c.name, Snapshot: c.queue.snapshot()})
	}
	l.mu.Lock()
	idle := true
	for _, c := range l.controllers {
		if !c.queue.empty() {
			idle = false
		}
	}
	changed := l.lastIdle == nil || *l.lastIdle != idle
	if changed {
		l.lastIdle = &idle
	}
	l.mu.Unlock()
	if changed {
		out = append(out, idleMessage{Type: "idle", Idle: idle})
	}
	return out
}
