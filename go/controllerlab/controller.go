package controllerlab

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// labController is what Controller Lab knows about one controller-runtime controller: its shape
// (learnt from the event handlers its sources register), its queue, the triggers waiting for each
// key's next reconcile, and which goroutine is which worker.
type labController struct {
	lab     *lab
	name    string
	workers int
	// The user's Reconcile (nil when unknown).
	reconciler *ReconcilerFunc
	queue      *queueState
	started    atomic.Bool

	mu          sync.Mutex
	forInformer *labInformer
	// The For kind as declared, until its informer is known (see declaredsources.go).
	forGVK *schema.GroupVersionKind
	// The registrations that enqueue the object itself (For, or Watches with EnqueueRequestForObject).
	forHandlers []*labHandler
	owns        []schema.GroupVersionKind
	watches     []schema.GroupVersionKind
	// Events that enqueued each key since its last reconcile (the last 50).
	triggers map[string][]TriggerDelta
	// The highest resourceVersion this controller's informers have delivered.
	cacheRV string
	// Worker slots in use: a reconcile takes the lowest free one (1-based), as a thread id.
	busyWorkers []bool
	// Set when the queue is built; used for retries in snapshots.
	rateLimiter *labRateLimiter
	// The shape last sent in a `ready`, and the timer that sends it once its sources registered.
	announced     string
	announceTimer *time.Timer
}

// announceAfter: how long after its last source registered a controller's shape is sent, when its
// caches have not synced by then (an informer RBAC refuses never does): the parent then knows what
// it watches, and "why not?" can say that it never received anything.
const announceAfter = 100 * time.Millisecond

const maxTriggersPerKey = 50

func newLabController(l *lab, name string, workers int) *labController {
	c := &labController{lab: l, name: name, workers: workers, triggers: map[string][]TriggerDelta{}}
	c.queue = newQueueState(c.numRequeues, c.queueChanged)
	return c
}

func (c *labController) numRequeues(key string) int {
	c.mu.Lock()
	rl := c.rateLimiter
	c.mu.Unlock()
	if rl == nil {
		return 0
	}
	ns, name := splitKey(key)
	return rl.NumRequeues(reconcile.Request{NamespacedName: namespacedName(ns, name)})
}

func (c *labController) queueChanged() {
	c.lab.session.queueChanged(c)
}

// enqueued notes an add on the queue, and the informer event behind it when there is one.
func (c *labController) enqueued(item reconcile.Request, after time.Duration, reason string) {
	key := keyOf(item)
	if note := c.lab.eventOf(c); note != nil {
		note.added(key, c.queue.fateOfAdd(key, after))
		c.mu.Lock()
		list := append(c.triggers[key], note.trigger)
		if len(list) > maxTriggersPerKey {
			list = list[len(list)-maxTriggersPerKey:]
		}
		c.triggers[key] = list
		c.mu.Unlock()
	}
	c.queue.addedAfter(key, after, reason)
}

// workerAsks: a worker waits for a key. The first one means the caches synced and workers started.
func (c *labController) workerAsks() {
	if !c.started.Load() && c.started.CompareAndSwap(false, true) {
		c.lab.workersStarted(c)
	}
}

// taken: a worker got the key.
func (c *labController) taken(item reconcile.Request) {
	c.queue.got(keyOf(item))
}

// takeTriggers returns and forgets the events that enqueued key since its last reconcile.
func (c *labController) takeTriggers(key string) []TriggerDelta {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.triggers[key]
	delete(c.triggers, key)
	return t
}

// takeWorker numbers a running reconcile: never more than MaxConcurrentReconciles run at once,
// so the numbers stay within the controller's workers, like the TypeScript host's.
func (c *labController) takeWorker() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, busy := range c.busyWorkers {
		if !busy {
			c.busyWorkers[i] = true
			return i + 1
		}
	}
	c.busyWorkers = append(c.busyWorkers, true)
	return len(c.busyWorkers)
}

func (c *labController) releaseWorker(n int) {
	c.mu.Lock()
	if n >= 1 && n <= len(c.busyWorkers) {
		c.busyWorkers[n-1] = false
	}
	c.mu.Unlock()
}

// observedRV raises the controller's cache resourceVersion.
func (c *labController) observedRV(rv string) {
	c.mu.Lock()
	if compareResourceVersions(rv, c.cacheRV) > 0 {
		c.cacheRV = rv
	}
	c.mu.Unlock()
}

// registered records what a source of this controller watches, and how it maps to requests.
func (c *labController) registered(h *labHandler) {
	inf := h.informer
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.announceTimer == nil {
		c.announceTimer = time.AfterFunc(announceAfter, c.announce)
	} else {
		c.announceTimer.Reset(announceAfter)
	}
	switch h.via {
	case "for":
		c.forInformer = inf
		c.forHandlers = append(c.forHandlers, h)
	case "owns":
		c.owns = appendKind(c.owns, inf.gvk)
	default:
		c.watches = appendKind(c.watches, inf.gvk)
	}
}

func appendKind(list []schema.GroupVersionKind, gvk schema.GroupVersionKind) []schema.GroupVersionKind {
	for _, k := range list {
		if k == gvk {
			return list
		}
	}
	return append(list, gvk)
}

// announce sends the controller's shape in a `ready`, unless it was sent as it is already.
func (c *labController) announce() {
	s := c.shape()
	id := fmt.Sprintf("%v %v %v %d", s.ForKind, s.Owns, s.Watches, s.Workers)
	c.mu.Lock()
	same := c.announced == id
	c.announced = id
	c.mu.Unlock()
	if !same {
		c.lab.session.send(readyMessage{Type: "ready", Controller: s})
	}
}

func (c *labController) shape() ControllerShape {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := ControllerShape{Name: c.name, Owns: []KindRef{}, Watches: []KindRef{}, Workers: c.workers, Reconciler: c.reconciler}
	if c.forInformer != nil {
		s.ForKind = kindRefOf(c.forInformer.gvk)
	} else if c.forGVK != nil {
		s.ForKind = kindRefOf(*c.forGVK)
	}
	for _, k := range c.owns {
		s.Owns = append(s.Owns, kindRefOf(k))
	}
	for _, k := range c.watches {
		s.Watches = append(s.Watches, kindRefOf(k))
	}
	return s
}

func (c *labController) forKind() (*labInformer, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.forInformer, c.cacheRV
}
