package controllerlab

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The manager's client, wrapped: a write made with a reconcile's context (or one derived from it)
// is recorded on that reconcile, with the resourceVersion the server answered, which controller-
// runtime decodes back into the object, and what it was before. Every successful write is also
// remembered until the cache catches up with it (ownWrites), and a reconcile's reads are checked
// against those (stalereads.go). Writes outside a reconcile are remembered, not recorded.

type labClient struct {
	client.Client
	lab   *lab
	reads readChecker
}

func newLabClient(inner client.Client, l *lab) *labClient {
	return &labClient{Client: inner, lab: l, reads: readChecker{written: l.written, kindOf: inner.GroupVersionKindFor}}
}

func (c *labClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	c.reads.afterGet(ctx, key, obj, err)
	return err
}

func (c *labClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	err := c.Client.List(ctx, list, opts...)
	c.reads.afterList(ctx, list, err)
	return err
}

func (c *labClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	w := c.begin("create", "", obj)
	err := c.Client.Create(ctx, obj, opts...)
	c.finish(ctx, w, err, createIsDryRun(opts))
	return err
}

func (c *labClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	w := c.begin("update", "", obj)
	err := c.Client.Update(ctx, obj, opts...)
	c.finish(ctx, w, err, updateIsDryRun(opts))
	return err
}

func (c *labClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	w := c.begin("patch", "", obj)
	err := c.Client.Patch(ctx, obj, patch, opts...)
	c.finish(ctx, w, err, patchIsDryRun(opts))
	return err
}

// Apply (server-side apply) is recorded as the PATCH it is sent as. An apply configuration is no
// client.Object: the write is described by the object it names, read from its JSON before the
// request and again after, once controller-runtime has decoded the answer into it.
func (c *labClient) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	target := appliedObject(obj)
	w := c.begin("patch", "", target)
	err := c.Client.Apply(ctx, obj, opts...)
	if err == nil {
		target.SetResourceVersion(appliedObject(obj).GetResourceVersion())
	}
	c.finish(ctx, w, err, applyIsDryRun(opts))
	return err
}

// appliedObject is the object an apply configuration names (kind, namespace, name,
// resourceVersion); empty when it does not encode as one, and then recorded without its kind.
func appliedObject(obj runtime.ApplyConfiguration) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	if data, err := json.Marshal(obj); err == nil {
		_ = json.Unmarshal(data, &u.Object)
	}
	return u
}

func (c *labClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	w := c.begin("delete", "", obj)
	err := c.Client.Delete(ctx, obj, opts...)
	c.finish(ctx, w, err, deleteIsDryRun(opts))
	return err
}

// DeleteAllOf is recorded as a delete of the kind; which objects it deleted is not known, so none
// is remembered.
func (c *labClient) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	w := c.begin("delete", "", obj)
	w.many = true
	err := c.Client.DeleteAllOf(ctx, obj, opts...)
	c.finish(ctx, w, err, false)
	return err
}

func (c *labClient) Status() client.SubResourceWriter {
	return &labSubResourceWriter{SubResourceWriter: c.Client.Status(), client: c, subresource: "status"}
}

func (c *labClient) SubResource(subresource string) client.SubResourceClient {
	inner := c.Client.SubResource(subresource)
	return &labSubResourceClient{SubResourceReader: inner, labSubResourceWriter: labSubResourceWriter{SubResourceWriter: inner, client: c, subresource: subresource}}
}

type labSubResourceWriter struct {
	client.SubResourceWriter
	client      *labClient
	subresource string
}

type labSubResourceClient struct {
	client.SubResourceReader
	labSubResourceWriter
}

func (w *labSubResourceWriter) Create(ctx context.Context, obj client.Object, sub client.Object, opts ...client.SubResourceCreateOption) error {
	call := w.client.begin("create", w.subresource, obj)
	err := w.SubResourceWriter.Create(ctx, obj, sub, opts...)
	w.client.finish(ctx, call, err, subResourceCreateIsDryRun(opts))
	return err
}

func (w *labSubResourceWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	// The TypeScript vocabulary's own verb for a status update.
	var call writeCall
	if w.subresource == "status" {
		call = w.client.begin("updateStatus", "", obj)
	} else {
		call = w.client.begin("update", w.subresource, obj)
	}
	err := w.SubResourceWriter.Update(ctx, obj, opts...)
	w.client.finish(ctx, call, err, subResourceUpdateIsDryRun(opts))
	return err
}

func (w *labSubResourceWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	call := w.client.begin("patch", w.subresource, obj)
	err := w.SubResourceWriter.Patch(ctx, obj, patch, opts...)
	w.client.finish(ctx, call, err, subResourcePatchIsDryRun(opts))
	return err
}

func (w *labSubResourceWriter) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	target := appliedObject(obj)
	call := w.client.begin("patch", w.subresource, target)
	err := w.SubResourceWriter.Apply(ctx, obj, opts...)
	if err == nil {
		target.SetResourceVersion(appliedObject(obj).GetResourceVersion())
	}
	w.client.finish(ctx, call, err, subResourceApplyIsDryRun(opts))
	return err
}

// writeCall is one write as it starts.
type writeCall struct {
	verb, subresource string
	obj               client.Object
	gvk               schema.GroupVersionKind
	// The kind is known (the scheme or the object names it).
	kindKnown bool
	// The object's resourceVersion before the write as far as known, taken before the request is
	// sent: afterwards the informer may already deliver the write's own event.
	previous string
	start    time.Time
	// DeleteAllOf: obj names a kind, not an object.
	many bool
}

func (c *labClient) begin(verb, subresource string, obj client.Object) writeCall {
	w := writeCall{verb: verb, subresource: subresource, obj: obj}
	var err error
	w.gvk, err = c.Client.GroupVersionKindFor(obj)
	w.kindKnown = err == nil
	if w.kindKnown && w.ofObject() && verb != "create" && obj.GetName() != "" {
		w.previous = c.lab.previousResourceVersion(w.gvk, obj, verb)
	}
	w.start = time.Now()
	return w
}

// ofObject: the write is to the object itself or its status, whose answer is the object.
func (w writeCall) ofObject() bool {
	return !w.many && (w.subresource == "" || w.subresource == "status")
}

// finish records the write on its reconcile, if made in one, and remembers a successful one.
func (c *labClient) finish(ctx context.Context, w writeCall, err error, dryRun bool) {
	run := inFlightFrom(ctx)
	if err == nil && !dryRun && w.kindKnown && w.ofObject() {
		c.lab.rememberWrite(w.gvk, w.obj, w.verb, seqOf(run))
	}
	if run == nil {
		return
	}
	rec := WriteRecord{Verb: w.verb, Namespace: w.obj.GetNamespace(), Name: w.obj.GetName(), At: w.start.UnixMilli(), DurationMs: msOf(time.Since(w.start)), Subresource: w.subresource, PreviousResourceVersion: w.previous, Caller: callerOutside()}
	if w.kindKnown {
		rec.APIVersion, rec.Kind = w.gvk.GroupVersion().String(), w.gvk.Kind
	}
	if w.verb == "delete" && w.ofObject() {
		rec.UID = string(w.obj.GetUID())
	}
	if err != nil {
		rec.Error = writeErrorOf(err)
	} else if w.verb != "delete" {
		rec.ResourceVersion = w.obj.GetResourceVersion()
		if !dryRun && w.kindKnown && w.ofObject() {
			rec.Changed = changedBy(w.verb, w.previous, rec.ResourceVersion)
		}
	}
	index := run.wrote(rec)
	if err == nil && !dryRun {
		c.lab.session.holdWrite(ctx, run, index, rec)
	}
}

func writeErrorOf(err error) *WriteError {
	we := &WriteError{Message: err.Error()}
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		s := status.Status()
		we.Code, we.Reason = s.Code, string(s.Reason)
	}
	return we
}
