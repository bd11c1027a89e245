package controllerlab

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// labReconciler sits where controller-runtime calls the user's reconciler (inside its panic
// recovery and after it put the reconcileID in the context): it reports the start with the cached
// object and the triggers, holds at the gate when the debugger asks, runs the reconciler with a
// context whose client writes are recorded, and reports how it ended and what the queue will do.
type labReconciler struct {
	inner        reconcile.Reconciler
	c            *labController
	recoverPanic bool
}

// inFlight is one running reconcile; writes made with its context, and its stale reads, land here.
type inFlight struct {
	// The reconcile's seq, which its writes are remembered by.
	seq int64
	// Its reconcileID, which a held write is released by.
	reconcileID string
	mu          sync.Mutex
	writes      []WriteRecord
	staleReads  []StaleRead
}

// seqOf is the seq of the reconcile run belongs to, 0 outside any.
func seqOf(run *inFlight) int64 {
	if run == nil {
		return 0
	}
	return run.seq
}

type inFlightKey struct{}

func inFlightFrom(ctx context.Context) *inFlight {
	r, _ := ctx.Value(inFlightKey{}).(*inFlight)
	return r
}

// wrote records a write and answers its index among the reconcile's writes.
func (r *inFlight) wrote(w WriteRecord) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, w)
	return len(r.writes) - 1
}

func (r *labReconciler) Reconcile(ctx context.Context, req reconcile.Request) (res reconcile.Result, err error) {
	c := r.c
	s := c.lab.session
	record := c.startRecord(ctx, req)
	defer c.releaseWorker(record.Worker)
	var gate chan struct{}
	if s.gated {
		gate = s.hold(record.ReconcileID)
		record.Goroutine = goroutineID()
	}
	// The queue as the reconcile sees it, then the reconcile.
	c.lab.session.send(queueMessage{Type: "queue", Controller: c.name, Snapshot: c.queue.snapshot()})
	s.send(reconcileStartMessage{Type: "reconcileStart", Record: record, Gated: s.gated})
	if gate != nil {
		s.wait(ctx, record.ReconcileID, gate)
	}

	run := &inFlight{seq: record.Seq, reconcileID: record.ReconcileID}
	ctx = context.WithValue(ctx, inFlightKey{}, run)
	id := record.ReconcileID
	ctx = logf.IntoContext(ctx, newLabLogger(logf.FromContext(ctx), func(line LogLine) {
		s.send(logMessage{Type: "log", ReconcileID: id, Line: line})
	}))
	started := time.Now()
	returned := false
	defer func() {
		if returned {
			return
		}
		p := recover()
		if p == nil {
			// runtime.Goexit: nothing to report but that it never returned.
			c.endRecord(record, started, run, reconcile.Result{}, errors.New("reconcile exited without returning (runtime.Goexit)"), "")
			return
		}
		// As controller-runtime reports it (its Reconcile recovers right above us).
		c.endRecord(record, started, run, reconcile.Result{}, fmt.Errorf("panic: %v [recovered]", p), string(debug.Stack()))
		if !r.recoverPanic {
			// The process is about to die: make sure the parent knows why.
			s.flush(time.Second)
		}
		panic(p)
	}()
	res, err = r.inner.Reconcile(ctx, req)
	returned = true
	c.endRecord(record, started, run, res, err, "")
	return res, err
}

// startRecord builds the reconcileStart record: request, cached object, triggers, cache position.
func (c *labController) startRecord(ctx context.Context, req reconcile.Request) *ReconcileRecord {
	key := keyOf(req)
	forInformer, cacheRV := c.forKind()
	record := &ReconcileRecord{
		Seq:                  c.lab.reconcileSeq.Add(1),
		ReconcileID:          string(controller.ReconcileIDFromContext(ctx)),
		Controller:           c.name,
		Worker:               c.takeWorker(),
		Key:                  key,
		Request:              ReconcileRequest{Namespace: req.Namespace, Name: req.Name},
		Trigger:              c.takeTriggers(key),
		CacheResourceVersion: cacheRV,
		CacheSeq:             c.lab.deltaSeq.Load(),
		StartedAt:            nowMs(),
		Writes:               []WriteRecord{},
		Logs:                 []LogLine{},
	}
	if record.ReconcileID == "" {
		record.ReconcileID = fmt.Sprintf("%s-%d", c.name, record.Seq)
	}
	if forInformer != nil {
		record.ForKind = kindRefOf(forInformer.gvk)
		if obj := forInformer.cached(ctx, key); obj != nil {
			record.Object = newKubeObject(obj, forInformer.gvk)
			record.ObjectResourceVersion = obj.GetResourceVersion()
		}
	}
	if len(record.Trigger) == 0 {
		// Nothing new was observed: the key came back through a requeue.
		record.Trigger = []TriggerDelta{{Type: "REQUEUE", Kind: record.ForKind.Kind, APIVersion: record.ForKind.APIVersion, Key: key, ResourceVersion: record.ObjectResourceVersion, Via: "requeue", At: record.StartedAt}}
	}
	return record
}

func (c *labController) endRecord(record *ReconcileRecord, started time.Time, run *inFlight, res reconcile.Result, err error, stack string) {
	run.mu.Lock()
	writes, staleReads := run.writes, run.staleReads
	run.mu.Unlock()
	if writes == nil {
		writes = []WriteRecord{}
	}
	outcome := outcomeOf(res, err, stack)
	c.lab.session.send(reconcileEndMessage{Type: "reconcileEnd", End: ReconcileEnd{
		ReconcileID: record.ReconcileID,
		Seq:         record.Seq,
		DurationMs:  msOf(time.Since(started)),
		Writes:      writes,
		Outcome:     outcome,
		Decision:    decide(res, err),
		StaleReads:  staleReads,
	}})
}

func outcomeOf(res reconcile.Result, err error, stack string) ReconcileOutcome {
	if err == nil {
		//nolint:staticcheck // Requeue is deprecated but still honoured by controller-runtime.
		return ReconcileOutcome{Kind: "success", Result: &ReconcileResult{Requeue: res.Requeue, RequeueAfter: msOf(res.RequeueAfter)}}
	}
	info := &ReconcileErrorInfo{Name: "Error", Message: err.Error(), Stack: stack}
	switch {
	case stack != "":
		info.Name = "Panic"
	case errors.Is(err, reconcile.TerminalError(nil)):
		info.Name = "TerminalError"
		info.Terminal = true
	case errors.Is(err, context.DeadlineExceeded):
		info.Name = "TimeoutError"
		info.TimedOut = true
	default:
		if reason := apierrors.ReasonForError(err); reason != "" {
			info.Name = string(reason)
		}
	}
	return ReconcileOutcome{Kind: "error", Error: info}
}

// decide is controller-runtime's reconcileHandler rule: an error requeues with backoff unless
// terminal; RequeueAfter wins over Requeue; otherwise the key is forgotten.
func decide(res reconcile.Result, err error) RequeueDecision {
	switch {
	case err != nil && errors.Is(err, reconcile.TerminalError(nil)):
		return RequeueDecision{Action: "forgetTerminal"}
	case err != nil:
		return RequeueDecision{Action: "addRateLimited", Reason: "error"}
	case res.RequeueAfter > 0:
		return RequeueDecision{Action: "addAfter", DelayMs: msOf(res.RequeueAfter)}
	case res.Requeue: //nolint:staticcheck // still honoured by controller-runtime
		return RequeueDecision{Action: "addRateLimited", Reason: "requeue"}
	default:
		return RequeueDecision{Action: "forget"}
	}
}
