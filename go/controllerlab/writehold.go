package controllerlab

import (
	"context"
	"strconv"
)

// Under a line debugger the parent stops the program inside the client call whose write changed a
// watched field (a data breakpoint). It can only tell once the write's cache event has arrived, so
// after each successful write a reconcile makes, its goroutine tells the parent (`write`) and
// waits in the client call for `writeSeen`: at once when the write concerns no data breakpoint,
// or, when it does, after the parent has paused the program here and the user continued or stepped.

// writeMessage is sent before the writing goroutine waits.
type writeMessage struct {
	Type        string      `json:"type"`
	ReconcileID string      `json:"reconcileId"`
	Seq         int64       `json:"seq"`
	Index       int         `json:"index"`
	Write       WriteRecord `json:"write"`
	Goroutine   uint64      `json:"goroutine"`
}

// holdWrite waits, when the parent asked for it, until the parent has seen write index of run.
func (s *session) holdWrite(ctx context.Context, run *inFlight, index int, rec WriteRecord) {
	if !s.holdWrites {
		return
	}
	id := writeHoldID(run.reconcileID, index)
	gate := s.hold(id)
	s.send(writeMessage{Type: "write", ReconcileID: run.reconcileID, Seq: run.seq, Index: index, Write: rec, Goroutine: goroutineID()})
	s.wait(ctx, id, gate)
}

// writeHoldID names a held write among the gates (a reconcileID never contains '#').
func writeHoldID(reconcileID string, index int) string {
	return reconcileID + "#" + strconv.Itoa(index)
}
