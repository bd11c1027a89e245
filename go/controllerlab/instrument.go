package controllerlab

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"

	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// How a controller-runtime controller is followed without asking the user to change how it is
// built: controller.New (which the builder calls) adds the controller to the manager, and the
// wrapped manager's Add swaps two of its exported fields before it starts: `Do` (the reconciler)
// for one that reports each reconcile, and `NewQueue` for one that wraps the queue and its rate
// limiter. Which controller an informer event handler feeds, and whether it is the For, Owns or
// Watches handler, is read from controller-runtime's event handler adapter; its predicates are
// swapped for ones that answer the same and report a no (predicates.go). If a
// future controller-runtime changes these shapes, the controller runs unfollowed and Controller
// Lab says why; it never breaks the controller.

const internalControllerPkg = "sigs.k8s.io/controller-runtime/pkg/internal/controller"

type newQueueFunc = func(string, workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request]

var (
	reconcilerType = reflect.TypeFor[reconcile.Reconciler]()
	newQueueType   = reflect.TypeFor[newQueueFunc]()
)

func (l *lab) instrument(r manager.Runnable) {
	v := reflect.ValueOf(r)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return
	}
	s := v.Elem()
	if s.Type().PkgPath() != internalControllerPkg {
		return
	}
	name := s.FieldByName("Name")
	if !name.IsValid() || name.Kind() != reflect.String {
		l.warn(fmt.Sprintf("controller-lab: cannot follow a controller of %s %s: its Name field changed", s.Type(), controllerRuntimeVersion()))
		return
	}
	do, newQueue := s.FieldByName("Do"), s.FieldByName("NewQueue")
	if !do.IsValid() || do.Type() != reconcilerType || !newQueue.IsValid() || newQueue.Type() != newQueueType || !do.CanSet() || !newQueue.CanSet() {
		l.warn(fmt.Sprintf("controller-lab: cannot follow controller %q: only controllers of reconcile.Request are followed (this one is %s)", name.String(), s.Type()))
		return
	}
	inner, _ := do.Interface().(reconcile.Reconciler)
	makeQueue, _ := newQueue.Interface().(newQueueFunc)
	if inner == nil || makeQueue == nil {
		return
	}
	workers := 1
	if w := s.FieldByName("MaxConcurrentReconciles"); w.IsValid() && w.Kind() == reflect.Int && w.Int() > 0 {
		workers = int(w.Int())
	}
	recoverPanic := true
	if rp := s.FieldByName("RecoverPanic"); rp.IsValid() && rp.Kind() == reflect.Pointer && !rp.IsNil() && rp.Elem().Kind() == reflect.Bool {
		recoverPanic = rp.Elem().Bool()
	}
	c := newLabController(l, name.String(), workers)
	c.reconciler = reconcilerFuncOf(inner)
	l.mu.Lock()
	l.controllers = append(l.controllers, c)
	l.mu.Unlock()

	do.Set(reflect.ValueOf(&labReconciler{inner: inner, c: c, recoverPanic: recoverPanic}))
	newQueue.Set(reflect.ValueOf(func(controllerName string, rl workqueue.TypedRateLimiter[reconcile.Request]) workqueue.TypedRateLimitingInterface[reconcile.Request] {
		// Called as the controller starts, right before its sources.
		c.declaredSources(s)
		lrl := &labRateLimiter{inner: rl, c: c}
		c.mu.Lock()
		c.rateLimiter = lrl
		c.mu.Unlock()
		q := wrapQueue(makeQueue(controllerName, lrl), c)
		l.mu.Lock()
		l.byQueue[reflect.ValueOf(q).Pointer()] = c
		l.mu.Unlock()
		return q
	}))
}

// classifyHandler tells which of our controllers an event handler registration feeds, and how it
// maps events to requests: "for" (the object itself), "owns" (its controlling owner) or "watches".
func (l *lab) classifyHandler(h toolscache.ResourceEventHandler) (*labController, string) {
	v := reflect.ValueOf(h)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil, ""
	}
	s := v.Elem()
	c := l.controllerOfQueueField(s.FieldByName("queue"))
	if c == nil {
		return nil, ""
	}
	via := "watches"
	if hd := s.FieldByName("handler"); hd.IsValid() && hd.Kind() == reflect.Interface && !hd.IsNil() {
		via = handlerVia(hd.Elem())
	}
	return c, via
}

// handlerVia names what a controller-runtime event handler maps from: "for" (the object itself),
// "owns" (its controlling owner) or "watches". Owns' handler comes wrapped by
// WithLowPriorityWhenUnchanged (TypedFuncs around the handler's methods, taken through its
// interface); controller-runtime wraps no other handler so, and that is how it is recognised.
func handlerVia(h reflect.Value) string {
	name := h.Type().String()
	switch {
	case strings.Contains(name, "EnqueueRequestForObject"):
		return "for"
	case strings.Contains(name, "enqueueRequestForOwner"):
		return "owns"
	}
	if h.Kind() == reflect.Struct && strings.HasPrefix(name, "handler.TypedFuncs[") {
		if f := h.FieldByName("CreateFunc"); f.IsValid() && f.Kind() == reflect.Func && !f.IsNil() {
			if fn := runtime.FuncForPC(f.Pointer()); fn != nil {
				created := fn.Name()
				if strings.Contains(created, "handler.TypedEventHandler[") && strings.HasSuffix(created, ".Create-fm") {
					return "owns"
				}
			}
		}
	}
	return "watches"
}

// controllerOfQueueField finds our queue in the handler's queue field, directly or inside the
// adapter controller-runtime puts around a queue that is not a priority queue.
func (l *lab) controllerOfQueueField(q reflect.Value) *labController {
	for depth := 0; depth < 3; depth++ {
		if !q.IsValid() || q.Kind() != reflect.Interface || q.IsNil() {
			return nil
		}
		p := q.Elem()
		if p.Kind() != reflect.Pointer || p.IsNil() {
			return nil
		}
		if c := l.controllerByQueue(p.Pointer()); c != nil {
			return c
		}
		if p.Elem().Kind() != reflect.Struct {
			return nil
		}
		q = p.Elem().FieldByName("TypedRateLimitingInterface")
	}
	return nil
}

// warn tells the user on stderr and the parent in its log.
func (l *lab) warn(message string) {
	fmt.Fprintln(os.Stderr, message)
	l.session.send(logMessage{Type: "log", Line: LogLine{Level: "error", Message: message, At: nowMs()}})
}
