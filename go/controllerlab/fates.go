package controllerlab

import "time"

// Every watch event's fate at each source of a controller, as the TypeScript host reports it
// (records.ts EventFate): the parent's "why (not)?" answers from these for both languages. A
// source's delivery (labHandler.deliver) collects what happens while controller-runtime's event
// handler runs: each request it adds to the queue (enqueued, merged into a key already queued,
// or waiting), or the predicate that said no (see predicates.go); nothing at all is "unmapped".

// EventFate is what became of one watch event at one source of one controller (one per request).
type EventFate struct {
	Controller      string `json:"controller"`
	Type            string `json:"type"`
	APIVersion      string `json:"apiVersion"`
	Kind            string `json:"kind"`
	Key             string `json:"key"`
	ResourceVersion string `json:"resourceVersion"`
	// "for", "owns" or "watches".
	Via  string `json:"via"`
	Fate string `json:"fate"`
	// The request's key (enqueued, merged, waiting).
	Request string `json:"request,omitempty"`
	// The predicate that filtered the event out, as the builder registered it.
	Predicate string `json:"predicate,omitempty"`
	// What the request's key was doing when the event came: queued, processing or waiting.
	KeyState string `json:"keyState,omitempty"`
	// How long the key still waits (waiting; enqueued while waiting: what was left).
	BackoffMs *float64 `json:"backoffMs,omitempty"`
	At        int64    `json:"at"`
}

// keyFate is what adding a key does, read from the key's state before the add.
type keyFate struct {
	fate, keyState string
	backoff        time.Duration
	hasBackoff     bool
}

// fateOfAdd says what adding k after delay does: merged into a key already queued (or due to run
// again after the reconcile in progress), waiting (a delayed add the queue holds back), or enqueued.
func (q *queueState) fateOfAdd(k string, delay time.Duration) keyFate {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := q.keys[k]
	now := q.now()
	waitingNow := s != nil && s.pending == pendingWaiting && s.readyAt.After(now)
	state := ""
	switch {
	case s == nil:
	case s.processing:
		state = "processing"
	case waitingNow:
		state = "waiting"
	case s.pending != pendingNone:
		state = "queued"
	}
	switch {
	case state == "queued" || (state == "processing" && s.pending != pendingNone):
		return keyFate{fate: "merged", keyState: state}
	case delay > 0:
		return keyFate{fate: "waiting", keyState: state, backoff: delay, hasBackoff: true}
	case state == "waiting":
		return keyFate{fate: "enqueued", keyState: state, backoff: s.readyAt.Sub(now), hasBackoff: true}
	}
	return keyFate{fate: "enqueued", keyState: state}
}

// fate sends one fate of the event being delivered.
func (n *eventNote) fate(f EventFate) {
	t := n.trigger
	f.Controller, f.Type, f.APIVersion, f.Kind, f.Key, f.ResourceVersion, f.Via, f.At = n.controller.name, t.Type, t.APIVersion, t.Kind, t.Key, t.ResourceVersion, n.via, t.At
	n.controller.lab.session.sendFate(&f)
}

// added: the event's handler adds request, with what that does to the queue.
func (n *eventNote) added(request string, kf keyFate) {
	n.requests++
	f := EventFate{Fate: kf.fate, Request: request, KeyState: kf.keyState}
	if kf.hasBackoff {
		ms := msOf(kf.backoff)
		f.BackoffMs = &ms
	}
	n.fate(f)
}

// ended: the handler returned. An event that added nothing was filtered, or mapped to no request.
func (n *eventNote) ended(h *labHandler) {
	if n.requests > 0 {
		return
	}
	if n.filteredBy == "" {
		n.filteredBy = h.rejectingTyped(n)
	}
	if n.filteredBy != "" {
		n.fate(EventFate{Fate: "filtered", Predicate: n.filteredBy})
		return
	}
	n.fate(EventFate{Fate: "unmapped"})
}
