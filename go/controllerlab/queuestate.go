package controllerlab

import (
	"sort"
	"sync"
	"time"
)

// queueState follows one controller's workqueue key by key from the calls made on it, since
// controller-runtime's queues do not show their items: queued (ready for a worker), processing
// (between Get and Done), waiting (until readyAt, after AddAfter or a rate-limited requeue). A key
// re-added while processing is `dirty`: it runs again once Done. The rules are the priority queue's
// (controller-runtime's default), which the classic rate-limiting queue also satisfies as seen
// from outside: an immediate add wins over a delayed one, and of two delays the earlier wins.
type queueState struct {
	mu       sync.Mutex
	keys     map[string]*keyState
	now      func() time.Time
	requeues func(key string) int
	changed  func()
}

type pendingKind uint8

const (
	pendingNone pendingKind = iota
	pendingReady
	pendingWaiting
)

type keyState struct {
	processing bool
	pending    pendingKind
	readyAt    time.Time
	delay      time.Duration
	reason     string
}

func newQueueState(requeues func(string) int, changed func()) *queueState {
	return &queueState{keys: map[string]*keyState{}, now: time.Now, requeues: requeues, changed: changed}
}

func (q *queueState) key(k string) *keyState {
	s := q.keys[k]
	if s == nil {
		s = &keyState{}
		q.keys[k] = s
	}
	return s
}

// added: the key will be handed to a worker as soon as one is free (or after Done).
func (q *queueState) added(k string) {
	q.mu.Lock()
	s := q.key(k)
	s.pending = pendingReady
	q.mu.Unlock()
	q.changed()
}

// addedAfter: the key becomes ready after delay; reason is "after" or "backoff".
func (q *queueState) addedAfter(k string, delay time.Duration, reason string) {
	if delay <= 0 {
		q.added(k)
		return
	}
	q.mu.Lock()
	s := q.key(k)
	readyAt := q.now().Add(delay)
	switch {
	case s.pending == pendingReady:
	case s.pending == pendingWaiting && !s.readyAt.After(readyAt):
	default:
		s.pending, s.readyAt, s.delay, s.reason = pendingWaiting, readyAt, delay, reason
	}
	q.mu.Unlock()
	q.changed()
}

// got: a worker took the key.
func (q *queueState) got(k string) {
	q.mu.Lock()
	s := q.key(k)
	s.processing = true
	// A queue that holds the key twice (ready, and a later timer) keeps the timer.
	if s.pending != pendingWaiting || !s.readyAt.After(q.now()) {
		s.pending = pendingNone
	}
	q.mu.Unlock()
	q.changed()
}

// done: the worker finished; a dirty key stays, as queued or waiting.
func (q *queueState) done(k string) {
	q.mu.Lock()
	if s := q.keys[k]; s != nil {
		s.processing = false
		if s.pending == pendingNone {
			delete(q.keys, k)
		}
	}
	q.mu.Unlock()
	q.changed()
}

func (q *queueState) empty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.keys) == 0
}

func (q *queueState) snapshot() QueueSnapshot {
	q.mu.Lock()
	now := q.now()
	snap := QueueSnapshot{At: now.UnixMilli(), Keys: make([]QueueKeySnapshot, 0, len(q.keys))}
	for k, s := range q.keys {
		ks := QueueKeySnapshot{Key: k, Retries: q.requeues(k)}
		waitingNow := s.pending == pendingWaiting && s.readyAt.After(now)
		switch {
		case s.processing:
			ks.State = "processing"
			ks.Dirty = s.pending != pendingNone
			snap.Processing++
		case waitingNow:
			ks.State = "waiting"
			ks.ReadyAt = s.readyAt.UnixMilli()
			backoff := msOf(s.delay)
			ks.BackoffMs = &backoff
			ks.Reason = s.reason
			snap.Waiting++
		default:
			// Ready, or a wait that has run out: the queue hands it out next.
			ks.State = "queued"
			snap.Depth++
		}
		snap.Keys = append(snap.Keys, ks)
	}
	q.mu.Unlock()
	sort.Slice(snap.Keys, func(i, j int) bool { return snap.Keys[i].Key < snap.Keys[j].Key })
	return snap
}
