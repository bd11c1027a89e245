package controllerlab

import (
	"reflect"
	"unsafe"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// What a controller watches, read from the sources the builder declared (For, Owns, Watches) as
// the controller starts them, before any of them has an informer: an informer RBAC refuses never
// syncs, and controller-runtime then registers no handler on it for minutes, yet "why not?" must
// be able to say that this controller watches the kind and is refused it. Read from
// controller-runtime's controller (its unexported startWatches) when it builds its queue, which it
// does right before it starts those sources; a source of another shape is learnt when it registers.

// declaredSources learns the kinds of the controller's declared sources (ctrl: the controller
// struct) and announces the controller's shape.
func (c *labController) declaredSources(ctrl reflect.Value) {
	f := ctrl.FieldByName("startWatches")
	if !f.IsValid() || f.Kind() != reflect.Slice || !f.CanAddr() {
		return
	}
	f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	learnt := false
	for i := 0; i < f.Len(); i++ {
		gvk, via, ok := c.lab.kindSource(f.Index(i))
		if !ok {
			continue
		}
		c.mu.Lock()
		switch via {
		case "for":
			if c.forInformer == nil && c.forGVK == nil {
				c.forGVK = &gvk
			}
		case "owns":
			c.owns = appendKind(c.owns, gvk)
		default:
			c.watches = appendKind(c.watches, gvk)
		}
		c.mu.Unlock()
		learnt = true
	}
	if learnt {
		c.announce()
	}
}

// kindSource reads a source.Kind (controller-runtime's internal Kind: its Type and Handler).
func (l *lab) kindSource(src reflect.Value) (schema.GroupVersionKind, string, bool) {
	for src.Kind() == reflect.Interface || src.Kind() == reflect.Pointer {
		if src.IsNil() {
			return schema.GroupVersionKind{}, "", false
		}
		src = src.Elem()
	}
	if src.Kind() != reflect.Struct || src.Type().PkgPath() != internalSourcePkg {
		return schema.GroupVersionKind{}, "", false
	}
	typ, hd := src.FieldByName("Type"), src.FieldByName("Handler")
	if !typ.IsValid() || !hd.IsValid() || !typ.CanInterface() || !hd.CanInterface() || typ.IsZero() || hd.IsZero() {
		return schema.GroupVersionKind{}, "", false
	}
	obj, ok := typ.Interface().(client.Object)
	if !ok || l.scheme == nil {
		return schema.GroupVersionKind{}, "", false
	}
	gvk, err := apiutil.GVKForObject(obj, l.scheme)
	if err != nil {
		return schema.GroupVersionKind{}, "", false
	}
	return gvk, handlerVia(hd.Elem()), true
}
