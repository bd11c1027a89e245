package controllerlab

import (
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// The controller's workqueue and rate limiter, wrapped: every call goes to controller-runtime's own
// queue unchanged, and is noted on the way in queueState (the per-key view) and, for an Add made
// while an informer event is being delivered, as that key's trigger.

type rateLimitingQueue = workqueue.TypedRateLimitingInterface[reconcile.Request]

type labQueue struct {
	inner rateLimitingQueue
	c     *labController
}

// labPriorityQueue is used when the controller's queue is controller-runtime's priority queue
// (the default), so event handlers and the controller still see a priority queue.
type labPriorityQueue struct {
	labQueue
	pq priorityqueue.PriorityQueue[reconcile.Request]
}

func wrapQueue(inner rateLimitingQueue, c *labController) rateLimitingQueue {
	if pq, ok := inner.(priorityqueue.PriorityQueue[reconcile.Request]); ok {
		return &labPriorityQueue{labQueue: labQueue{inner: inner, c: c}, pq: pq}
	}
	return &labQueue{inner: inner, c: c}
}

func (q *labQueue) Add(item reconcile.Request) {
	q.c.enqueued(item, 0, "")
	q.inner.Add(item)
}

func (q *labQueue) AddAfter(item reconcile.Request, d time.Duration) {
	q.c.enqueued(item, d, "after")
	q.inner.AddAfter(item, d)
}

// AddRateLimited: the delay is learnt when the queue asks the rate limiter (labRateLimiter.When).
func (q *labQueue) AddRateLimited(item reconcile.Request) {
	q.inner.AddRateLimited(item)
}

func (q *labQueue) Get() (reconcile.Request, bool) {
	q.c.workerAsks()
	item, shutdown := q.inner.Get()
	if !shutdown {
		q.c.taken(item)
	}
	return item, shutdown
}

func (q *labQueue) Done(item reconcile.Request) {
	q.inner.Done(item)
	q.c.queue.done(keyOf(item))
}

func (q *labQueue) Forget(item reconcile.Request) {
	q.inner.Forget(item)
	q.c.queueChanged()
}

func (q *labQueue) NumRequeues(item reconcile.Request) int { return q.inner.NumRequeues(item) }
func (q *labQueue) Len() int                               { return q.inner.Len() }
func (q *labQueue) ShutDown()                              { q.inner.ShutDown() }
func (q *labQueue) ShutDownWithDrain()                     { q.inner.ShutDownWithDrain() }
func (q *labQueue) ShuttingDown() bool                     { return q.inner.ShuttingDown() }

func (q *labPriorityQueue) AddWithOpts(o priorityqueue.AddOpts, items ...reconcile.Request) {
	if !o.RateLimited {
		for _, item := range items {
			q.c.enqueued(item, o.After, "after")
		}
	}
	q.pq.AddWithOpts(o, items...)
}

func (q *labPriorityQueue) GetWithPriority() (reconcile.Request, int, bool) {
	q.c.workerAsks()
	item, priority, shutdown := q.pq.GetWithPriority()
	if !shutdown {
		q.c.taken(item)
	}
	return item, priority, shutdown
}

func (q *labPriorityQueue) Get() (reconcile.Request, bool) {
	item, _, shutdown := q.GetWithPriority()
	return item, shutdown
}

// labRateLimiter reports each backoff the queue asks for: the key waits that long, "backoff".
type labRateLimiter struct {
	inner workqueue.TypedRateLimiter[reconcile.Request]
	c     *labController
}

func (r *labRateLimiter) When(item reconcile.Request) time.Duration {
	d := r.inner.When(item)
	r.c.queue.addedAfter(keyOf(item), d, "backoff")
	return d
}

func (r *labRateLimiter) Forget(item reconcile.Request) {
	r.inner.Forget(item)
}

func (r *labRateLimiter) NumRequeues(item reconcile.Request) int {
	return r.inner.NumRequeues(item)
}

// keyOf is the request as a cache key: namespace/name, or name for cluster-scoped objects.
func keyOf(r reconcile.Request) string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}
