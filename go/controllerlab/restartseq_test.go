package controllerlab

import "testing"

// A process Controller Lab restarted within a session numbers its reconciles and deltas on from
// the one it replaces; a first process, or a value that is not a number, starts at 1.
func TestRestartedProcessNumbersOn(t *testing.T) {
	t.Setenv(EnvReconcileSeq, "41")
	t.Setenv(EnvDeltaSeq, "1200")
	l := newLab(newSession(nil, false, false), nil, nil)
	if got := l.reconcileSeq.Add(1); got != 42 {
		t.Fatalf("first reconcile seq = %d, want 42", got)
	}
	if got := l.deltaSeq.Add(1); got != 1201 {
		t.Fatalf("first delta seq = %d, want 1201", got)
	}

	t.Setenv(EnvReconcileSeq, "not a number")
	t.Setenv(EnvDeltaSeq, "")
	l = newLab(newSession(nil, false, false), nil, nil)
	if got := l.reconcileSeq.Add(1); got != 1 {
		t.Fatalf("first reconcile seq = %d, want 1", got)
	}
	if got := l.deltaSeq.Add(1); got != 1 {
		t.Fatalf("first delta seq = %d, want 1", got)
	}
}
