package controllerlab

import (
	"testing"
	"time"
)

// The per-key queue view follows the calls the controller makes on its queue, with a fake clock.

type fakeClock struct{ t time.Time }

func newTestQueue() (*queueState, *fakeClock, *int) {
	clock := &fakeClock{t: time.UnixMilli(1_000_000)}
	changes := 0
	retries := map[string]int{"a/y": 3}
	q := newQueueState(func(k string) int { return retries[k] }, func() { changes++ })
	q.now = func() time.Time { return clock.t }
	return q, clock, &changes
}

func stateOf(t *testing.T, q *queueState, key string) QueueKeySnapshot {
	t.Helper()
	for _, k := range q.snapshot().Keys {
		if k.Key == key {
			return k
		}
	}
	return QueueKeySnapshot{Key: key, State: "absent"}
}

func TestAKeyGoesQueuedProcessingAndAway(t *testing.T) {
	q, _, changes := newTestQueue()
	q.added("a/x")
	if s := stateOf(t, q, "a/x"); s.State != "queued" {
		t.Fatalf("after add: %+v", s)
	}
	q.got("a/x")
	if s := stateOf(t, q, "a/x"); s.State != "processing" || s.Dirty {
		t.Fatalf("after get: %+v", s)
	}
	q.done("a/x")
	if s := stateOf(t, q, "a/x"); s.State != "absent" || !q.empty() {
		t.Fatalf("after done: %+v", s)
	}
	if *changes != 3 {
		t.Errorf("%d change notifications, want 3", *changes)
	}
}

func TestAKeyAddedWhileProcessingIsDirtyAndRunsAgain(t *testing.T) {
	q, _, _ := newTestQueue()
	q.added("a/x")
	q.got("a/x")
	q.added("a/x")
	if s := stateOf(t, q, "a/x"); s.State != "processing" || !s.Dirty {
		t.Fatalf("re-added while processing: %+v", s)
	}
	q.done("a/x")
	snap := q.snapshot()
	if s := stateOf(t, q, "a/x"); s.State != "queued" || snap.Depth != 1 || snap.Processing != 0 {
		t.Fatalf("after done: %+v (%+v)", s, snap)
	}
}

func TestWaitingKeysShowBackoffAndRetriesUntilReady(t *testing.T) {
	q, clock, _ := newTestQueue()
	q.addedAfter("a/y", 40*time.Millisecond, "backoff")
	s := stateOf(t, q, "a/y")
	if s.State != "waiting" || s.Reason != "backoff" || s.Retries != 3 || s.BackoffMs == nil || *s.BackoffMs != 40 || s.ReadyAt != clock.t.UnixMilli()+40 {
		t.Fatalf("waiting: %+v", s)
	}
	// A later delay does not push it back; an earlier one brings it forward.
	q.addedAfter("a/y", time.Minute, "after")
	if s := stateOf(t, q, "a/y"); s.Reason != "backoff" || s.ReadyAt != clock.t.UnixMilli()+40 {
		t.Fatalf("later delay moved it: %+v", s)
	}
	q.addedAfter("a/y", 10*time.Millisecond, "after")
	if s := stateOf(t, q, "a/y"); s.Reason != "after" || s.ReadyAt != clock.t.UnixMilli()+10 {
		t.Fatalf("earlier delay ignored: %+v", s)
	}
	clock.t = clock.t.Add(11 * time.Millisecond)
	if s := stateOf(t, q, "a/y"); s.State != "queued" {
		t.Fatalf("a wait that ran out is queued, got %+v", s)
	}
}

func TestAnImmediateAddWinsOverAWait(t *testing.T) {
	q, _, _ := newTestQueue()
	q.addedAfter("a/x", time.Hour, "after")
	q.added("a/x")
	if s := stateOf(t, q, "a/x"); s.State != "queued" {
		t.Fatalf("%+v", s)
	}
	q.addedAfter("a/x", time.Hour, "after")
	if s := stateOf(t, q, "a/x"); s.State != "queued" {
		t.Fatalf("a delay demoted a ready key: %+v", s)
	}
}

func TestARequeueAfterDuringProcessingWaitsOnceDone(t *testing.T) {
	q, _, _ := newTestQueue()
	q.added("a/x")
	q.got("a/x")
	// controller-runtime requeues before it calls Done.
	q.addedAfter("a/x", time.Hour, "after")
	if s := stateOf(t, q, "a/x"); s.State != "processing" || !s.Dirty {
		t.Fatalf("%+v", s)
	}
	q.done("a/x")
	snap := q.snapshot()
	if s := stateOf(t, q, "a/x"); s.State != "waiting" || s.Reason != "after" || snap.Waiting != 1 {
		t.Fatalf("%+v", s)
	}
	if q.empty() {
		t.Fatal("a waiting key is not idle")
	}
}
