package controllerlab_test

import (
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/controller-lab/controller-lab/go/simtest"
	"k8s.io/client-go/rest"
)

// The project's simulated cluster, started once for the package's end-to-end tests through
// simtest (the repository's own `controller-lab sim`, over HTTPS with its kubeconfig): the same API
// server the TypeScript controllers and kubectl are tested against.

var (
	simOnce sync.Once
	sim     = &simtest.Environment{}
	simErr  error
)

// simConfig starts the simulated cluster on first use and returns a rest.Config for it. A missing
// Node fails the test with what to do: these tests must not pass by skipping.
func simConfig(t *testing.T) *rest.Config {
	t.Helper()
	simOnce.Do(func() { _, simErr = sim.Start() })
	if simErr != nil {
		t.Fatalf("simulated cluster: %v", simErr)
	}
	cfg := rest.CopyConfig(sim.Config)
	cfg.QPS, cfg.Burst = 200, 400
	return cfg
}

// simFault applies one of the simulated cluster's faults (src/sim/faults/faultTable.ts) through
// its admin endpoint, as `controller-lab sim fault` does.
func simFault(t *testing.T, cfg *rest.Config, name string) {
	t.Helper()
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Post(strings.TrimSuffix(cfg.Host, "/")+"/controller-lab/admin/"+name, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("fault %s: %v", name, err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("fault %s: %s %s", name, resp.Status, body)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	_ = sim.Stop()
	os.Exit(code)
}
