package controllerlab

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// A write says what the object's resourceVersion was before it and whether it changed the object,
// so that a write the server stored nothing for, or that failed, is not counted as a change.

// answeringServer answers every write with the resourceVersion it is told, or an error.
type answeringServer struct {
	client.Client
	answer string
	err    error
}

func (s *answeringServer) Create(_ context.Context, obj client.Object, _ ...client.CreateOption) error {
	return s.respond(obj)
}

func (s *answeringServer) Update(_ context.Context, obj client.Object, _ ...client.UpdateOption) error {
	return s.respond(obj)
}

func (s *answeringServer) Patch(_ context.Context, obj client.Object, _ client.Patch, _ ...client.PatchOption) error {
	return s.respond(obj)
}

func (s *answeringServer) respond(obj client.Object) error {
	if s.err != nil {
		return s.err
	}
	obj.SetResourceVersion(s.answer)
	return nil
}

func (s *answeringServer) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return apiutil.GVKForObject(obj, clientgoscheme.Scheme)
}

func TestWritesSayWhetherTheyChangedTheObject(t *testing.T) {
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	l.informers[gvk] = &informerState{gvk: gvk, lastSeen: map[string]seenEvent{"shop/web": {typ: "MODIFIED", rv: "8"}}}
	server := &answeringServer{}
	c := newLabClient(server, l)
	conflict := apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "web", nil)

	for _, tc := range []struct {
		name   string
		write  func(ctx context.Context) error
		answer string
		err    error
		// previous|changed|resourceVersion|error
		want string
	}{
		{"an update the server stored nothing for", func(ctx context.Context) error { return c.Update(ctx, configMap("web", "8")) }, "8", nil, "8|false|8|"},
		{"an update that changed it", func(ctx context.Context) error { return c.Update(ctx, configMap("web", "8")) }, "9", nil, "8|true|9|"},
		{"a failed update", func(ctx context.Context) error { return c.Update(ctx, configMap("web", "7")) }, "", conflict, "7|unknown||Conflict"},
		{"a patch carrying no resourceVersion, unchanged", func(ctx context.Context) error {
			return c.Patch(ctx, configMap("web", ""), client.MergeFrom(configMap("web", "")))
		}, "8", nil, "8|false|8|"},
		{"a dry-run update", func(ctx context.Context) error { return c.Update(ctx, configMap("web", "8"), client.DryRunAll) }, "8", nil, "8|unknown|8|"},
		{"a create", func(ctx context.Context) error { return c.Create(ctx, configMap("new", "")) }, "10", nil, "|true|10|"},
	} {
		server.answer, server.err = tc.answer, tc.err
		ctx, run := reconcileContext(1)
		_ = tc.write(ctx)
		if len(run.writes) != 1 {
			t.Fatalf("%s: %d writes recorded", tc.name, len(run.writes))
		}
		w := run.writes[0]
		changed := "unknown"
		if w.Changed != nil && *w.Changed {
			changed = "true"
		} else if w.Changed != nil {
			changed = "false"
		}
		reason := ""
		if w.Error != nil {
			reason = w.Error.Reason
		}
		if got := w.PreviousResourceVersion + "|" + changed + "|" + w.ResourceVersion + "|" + reason; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestAWriteChangedTheObjectWhenItsAnswerIsNewer(t *testing.T) {
	for _, tc := range []struct {
		verb, previous, answered string
		want                     string
	}{
		{"create", "", "5", "true"},
		{"update", "5", "5", "false"},
		{"update", "5", "6", "true"},
		{"patch", "", "6", "unknown"},
		{"patch", "opaque", "6", "unknown"},
	} {
		got := "unknown"
		if c := changedBy(tc.verb, tc.previous, tc.answered); c != nil && *c {
			got = "true"
		} else if c != nil {
			got = "false"
		}
		if got != tc.want {
			t.Errorf("%s %s → %s: changed %s, want %s", tc.verb, tc.previous, tc.answered, got, tc.want)
		}
	}
}

func TestTheResourceVersionBeforeAPatchIsTheNewestKnown(t *testing.T) {
	l := newLab(newSession(nil, false, false), clientgoscheme.Scheme, nil)
	gvk := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	l.informers[gvk] = &informerState{gvk: gvk, lastSeen: map[string]seenEvent{"shop/web": {typ: "MODIFIED", rv: "8"}}}
	l.written.watch(configMaps)

	if got := l.previousResourceVersion(gvk, configMap("web", ""), "patch"); got != "8" {
		t.Errorf("a patch carrying no resourceVersion: %q, want the informer's 8", got)
	}
	if got := l.previousResourceVersion(gvk, configMap("web", "7"), "patch"); got != "8" {
		t.Errorf("a patch carrying an older one: %q, want 8", got)
	}
	l.written.wrote(configMaps, configMap("web", "9"), "patch", 1)
	if got := l.previousResourceVersion(gvk, configMap("web", ""), "patch"); got != "9" {
		t.Errorf("after the process's own write answered 9: %q", got)
	}
	// An update is refused at any resourceVersion but the server's: what it carries is exact.
	if got := l.previousResourceVersion(gvk, configMap("web", "7"), "update"); got != "7" {
		t.Errorf("an update carrying 7: %q", got)
	}
	if got := l.previousResourceVersion(gvk, configMap("unknown", ""), "patch"); got != "" {
		t.Errorf("an object nothing is known of: %q", got)
	}
}
