package controllerlab

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The manager's client, wrapped: a write made with a reconcile's context (or one derived from it)
// is recorded on that reconcile, with the resourceVersion the server answered, which controller-
// runtime decodes back into the object. Reads, and writes outside a reconcile, pass straight through.

type labClient struct {
	client.Client
}

func (c *labClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := c.Client.Create(ctx, obj, opts...)
	record(run, c.Client, "create", "", obj, start, err)
	return err
}

func (c *labClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := c.Client.Update(ctx, obj, opts...)
	record(run, c.Client, "update", "", obj, start, err)
	return err
}

func (c *labClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := c.Client.Patch(ctx, obj, patch, opts...)
	record(run, c.Client, "patch", "", obj, start, err)
	return err
}

func (c *labClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := c.Client.Delete(ctx, obj, opts...)
	record(run, c.Client, "delete", "", obj, start, err)
	return err
}

func (c *labClient) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := c.Client.DeleteAllOf(ctx, obj, opts...)
	record(run, c.Client, "delete", "", obj, start, err)
	return err
}

func (c *labClient) Status() client.SubResourceWriter {
	return &labSubResourceWriter{SubResourceWriter: c.Client.Status(), client: c.Client, subresource: "status"}
}

func (c *labClient) SubResource(subresource string) client.SubResourceClient {
	inner := c.Client.SubResource(subresource)
	return &labSubResourceClient{SubResourceReader: inner, labSubResourceWriter: labSubResourceWriter{SubResourceWriter: inner, client: c.Client, subresource: subresource}}
}

type labSubResourceWriter struct {
	client.SubResourceWriter
	client      client.Client
	subresource string
}

type labSubResourceClient struct {
	client.SubResourceReader
	labSubResourceWriter
}

func (w *labSubResourceWriter) Create(ctx context.Context, obj client.Object, sub client.Object, opts ...client.SubResourceCreateOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := w.SubResourceWriter.Create(ctx, obj, sub, opts...)
	record(run, w.client, "create", w.subresource, obj, start, err)
	return err
}

func (w *labSubResourceWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := w.SubResourceWriter.Update(ctx, obj, opts...)
	if w.subresource == "status" {
		// The TypeScript vocabulary's own verb for it.
		record(run, w.client, "updateStatus", "", obj, start, err)
	} else {
		record(run, w.client, "update", w.subresource, obj, start, err)
	}
	return err
}

func (w *labSubResourceWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	run, start := inFlightFrom(ctx), time.Now()
	err := w.SubResourceWriter.Patch(ctx, obj, patch, opts...)
	record(run, w.client, "patch", w.subresource, obj, start, err)
	return err
}

func record(run *inFlight, c client.Client, verb, subresource string, obj client.Object, start time.Time, err error) {
	if run == nil {
		return
	}
	w := WriteRecord{Verb: verb, Namespace: obj.GetNamespace(), Name: obj.GetName(), At: start.UnixMilli(), DurationMs: msOf(time.Since(start)), Subresource: subresource}
	if gvk, gerr := c.GroupVersionKindFor(obj); gerr == nil {
		w.APIVersion, w.Kind = gvk.GroupVersion().String(), gvk.Kind
	}
	if err != nil {
		w.Error = writeErrorOf(err)
	} else if verb != "delete" {
		w.ResourceVersion = obj.GetResourceVersion()
	}
	run.wrote(w)
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
