package controllerlab

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Informers the cluster refuses to let list or watch (RBAC's 403), told to the parent as informer
// error probes, as the TypeScript host's informers tell theirs: "why not?" then says the
// controller never received the kind's events because it may not read them, and the debugger
// prints the refusal. controller-runtime keeps such an informer retrying quietly (its logs go
// nowhere unless the program sets a logger), so the answers are read where they arrive: the
// manager's HTTP client, shared by its cache, wrapped once when Controller Lab attaches. Only a
// refused list or watch of a collection is reported, once per resource; the sync of its informer
// clears it on the parent's side.

type refusalTransport struct {
	inner http.RoundTripper
	lab   *lab
	mu    sync.Mutex
	told  map[string]bool
}

// watchRefusals wraps hc's transport (nil: nothing to wrap).
func (l *lab) watchRefusals(hc *http.Client) {
	if hc == nil {
		return
	}
	inner := hc.Transport
	if inner == nil {
		inner = http.DefaultTransport
	}
	hc.Transport = &refusalTransport{inner: inner, lab: l, told: map[string]bool{}}
}

func (t *refusalTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.inner.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusForbidden || req.Method != http.MethodGet {
		return resp, err
	}
	resource, ok := listedResource(req.URL.Path)
	if !ok {
		return resp, err
	}
	t.mu.Lock()
	told := t.told[resource]
	t.told[resource] = true
	t.mu.Unlock()
	if told {
		return resp, err
	}
	// The Status is small; read it, and hand the caller the same bytes.
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var status struct {
		Message string `json:"message"`
	}
	message := resource + " is forbidden"
	if json.Unmarshal(body, &status) == nil && status.Message != "" {
		message = status.Message
	}
	t.lab.session.send(probeMessage{Type: "probe", Probe: Probe{At: nowMs(), Informer: resource, Kind: "error", Code: http.StatusForbidden, Message: message}})
	return resp, err
}

// listedResource is the resource a list or watch of a collection reads, as informers are named
// (`configmaps`, `deployments.apps`): /api/v1[/namespaces/NS]/RESOURCE or
// /apis/GROUP/VERSION[/namespaces/NS]/RESOURCE. A path to one object (or a subresource) is none.
func listedResource(path string) (string, bool) {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	group := ""
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, parts = parts[1], parts[3:]
	default:
		return "", false
	}
	if len(parts) == 3 && parts[0] == "namespaces" {
		parts = parts[2:]
	}
	if len(parts) != 1 || parts[0] == "" {
		return "", false
	}
	if group == "" {
		return parts[0], true
	}
	return parts[0] + "." + group, true
}
