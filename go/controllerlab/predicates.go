package controllerlab

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
)

// The predicates a source applies, as the builder registered them: how each one is named in a
// "why not?" answer, and which one filtered an event out. controller-runtime's event handler
// adapter keeps a source's predicates (WithEventFilter's, then the source's own) in an unexported
// field; when a source is registered, that slice is replaced by a copy whose predicates answer
// exactly as the originals and, when one says no, name it on the event being delivered. A typed
// source's predicates (of another object type) cannot be wrapped: for an event that enqueued
// nothing they are asked again, read-only. Names are Go's: the type as the user
// wrote it (`predicate.GenerationChangedPredicate`, not its generic form), and for predicate.Funcs
// the function that said no, with its file and line.

const predicatePkg = "sigs.k8s.io/controller-runtime/pkg/predicate"

// eventKind is the event a predicate is asked about, as the predicate's methods name it.
type eventKind string

const (
	createEvent  eventKind = "Create"
	updateEvent  eventKind = "Update"
	deleteEvent  eventKind = "Delete"
	genericEvent eventKind = "Generic"
)

// eventKindOf is the predicate method an informer event type is asked through.
func eventKindOf(deltaType string) eventKind {
	switch deltaType {
	case "ADDED":
		return createEvent
	case "DELETED":
		return deleteEvent
	}
	return updateEvent
}

// predicateName names p for the event kind it was asked about.
func predicateName(p any, kind eventKind) string {
	v := reflect.ValueOf(p)
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "nil predicate"
		}
		v = v.Elem()
	}
	t := v.Type()
	name := t.String()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	if t.PkgPath() != predicatePkg {
		return name
	}
	// controller-runtime's generic predicates: the names users write are aliases without "Typed".
	name = strings.Replace(name, "predicate.Typed", "predicate.", 1)
	switch name {
	case "predicate.Funcs":
		return funcsName(v, kind)
	case "predicate.and":
		return "predicate.And(…)"
	case "predicate.or":
		return "predicate.Or(…)"
	case "predicate.not":
		return "predicate.Not(…)"
	}
	return name
}

// funcsName names a predicate.Funcs by the function that answered for this event kind.
func funcsName(v reflect.Value, kind eventKind) string {
	field := string(kind) + "Func"
	f := v.FieldByName(field)
	if !f.IsValid() || f.Kind() != reflect.Func || f.IsNil() {
		return "predicate.Funcs"
	}
	fn := runtime.FuncForPC(f.Pointer())
	if fn == nil {
		return "predicate.Funcs"
	}
	full := fn.Name()
	if isPredicateFuncsClosure(fn, f.Pointer()) {
		if filter := filterName(f); filter != "" {
			return "predicate.NewPredicateFuncs(" + filter + ")"
		}
		return "predicate.NewPredicateFuncs(…)"
	}
	short := full
	if i := strings.LastIndexByte(short, '/'); i >= 0 {
		short = short[i+1:]
	}
	file, line := fn.FileLine(f.Pointer())
	return fmt.Sprintf("predicate.Funcs{%s: %s (%s:%d)}", field, short, filepath.Base(file), line)
}

// rejectingReflect returns the index of the first predicate of a typed source (whose object type is
// not client.Object, so they cannot be wrapped) that says no to the event, asked again through
// reflection: each predicate's method builds its own event type. ok is false when they cannot be
// asked. Only done for an event that enqueued nothing.
func rejectingReflect(predicates reflect.Value, kind eventKind, old, obj any) (int, bool) {
	for i := 0; i < predicates.Len(); i++ {
		p := predicates.Index(i)
		m := p.MethodByName(string(kind))
		if !m.IsValid() || m.Type().NumIn() != 1 || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.Bool {
			return -1, false
		}
		e := reflect.New(m.Type().In(0)).Elem()
		set := func(field string, value any) bool {
			f := e.FieldByName(field)
			if !f.IsValid() || value == nil {
				return false
			}
			v := reflect.ValueOf(value)
			if !v.Type().AssignableTo(f.Type()) {
				return false
			}
			f.Set(v)
			return true
		}
		ok := true
		if kind == updateEvent {
			ok = set("ObjectOld", old) && set("ObjectNew", obj)
		} else {
			ok = set("Object", obj)
		}
		if !ok {
			return -1, false
		}
		if !m.Call([]reflect.Value{e})[0].Bool() {
			return i, true
		}
	}
	return -1, true
}

const internalSourcePkg = "sigs.k8s.io/controller-runtime/pkg/internal/source"

var predicatesType = reflect.TypeFor[[]predicate.Predicate]()

// reportingPredicate is one of the builder's predicates as installed on a source: it answers as
// the predicate does and, when it says no, names it on the event its source is delivering (the
// source's handler runs its predicates while it delivers, so no goroutine lookup is needed).
type reportingPredicate struct {
	inner predicate.Predicate
	h     *labHandler
	// Its name for each event kind, worked out once (reflection is too slow for every event).
	names map[eventKind]string
}

func newReportingPredicate(p predicate.Predicate, h *labHandler) reportingPredicate {
	names := map[eventKind]string{}
	for _, kind := range []eventKind{createEvent, updateEvent, deleteEvent, genericEvent} {
		names[kind] = predicateName(p, kind)
	}
	return reportingPredicate{inner: p, h: h, names: names}
}

func (p reportingPredicate) Create(e event.CreateEvent) bool {
	return p.said(p.inner.Create(e), createEvent)
}

func (p reportingPredicate) Update(e event.UpdateEvent) bool {
	return p.said(p.inner.Update(e), updateEvent)
}

func (p reportingPredicate) Delete(e event.DeleteEvent) bool {
	return p.said(p.inner.Delete(e), deleteEvent)
}

func (p reportingPredicate) Generic(e event.GenericEvent) bool {
	return p.said(p.inner.Generic(e), genericEvent)
}

// said notes a no (the first one: controller-runtime stops asking there). A yes costs nothing.
func (p reportingPredicate) said(pass bool, kind eventKind) bool {
	if !pass {
		if n := p.h.current; n != nil && n.filteredBy == "" {
			n.filteredBy = p.names[kind]
		}
	}
	return pass
}

// installPredicates wraps the predicates of controller-runtime's event handler h, which lh wraps.
// It returns a typed source's predicates, which it cannot wrap (the zero Value otherwise).
func installPredicates(h toolscache.ResourceEventHandler, lh *labHandler) reflect.Value {
	v := reflect.ValueOf(h)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != internalSourcePkg {
		return reflect.Value{}
	}
	f := v.Elem().FieldByName("predicates")
	if !f.IsValid() || f.Kind() != reflect.Slice || !f.CanAddr() {
		return reflect.Value{}
	}
	// Unexported: reachable only through its address. Set before the informer delivers anything.
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	if f.Type() != predicatesType {
		return f
	}
	list, _ := f.Interface().([]predicate.Predicate)
	if len(list) == 0 {
		return reflect.Value{}
	}
	wrapped := make([]predicate.Predicate, len(list))
	for i, p := range list {
		wrapped[i] = newReportingPredicate(p, lh)
	}
	f.Set(reflect.ValueOf(wrapped))
	return reflect.Value{}
}

// rejectingTyped names the typed predicate that filtered out the event n ("" when none did).
func (h *labHandler) rejectingTyped(n *eventNote) string {
	if !h.typedPredicates.IsValid() || h.typedPredicates.Len() == 0 {
		return ""
	}
	i, ok := rejectingReflect(h.typedPredicates, n.kind, n.old, n.obj)
	if !ok || i < 0 {
		return ""
	}
	return predicateName(h.typedPredicates.Index(i).Interface(), n.kind)
}
