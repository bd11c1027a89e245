package simtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCheckoutCommandRunsAFreshBundleAndTheSourcesOtherwise(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/cli/main.ts", "src/sim/store.ts", "dist/cli.cjs", "node_modules/.bin/node"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	for _, f := range []string{"src/cli/main.ts", "src/sim/store.ts"} {
		if err := os.Chtimes(filepath.Join(dir, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if got := checkoutCommand(dir); got[1] != filepath.Join(dir, "dist", "cli.cjs") {
		t.Fatalf("with a bundle newer than the sources: %v, want the bundle", got)
	}
	if got := command0Dir(checkoutCommand(dir)); got != dir {
		t.Fatalf("the bundle's working directory: %q, want %q", got, dir)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "src/sim/store.ts"), later, later); err != nil {
		t.Fatal(err)
	}
	if got := checkoutCommand(dir); got[1] != filepath.Join(dir, "src", "cli", "main.ts") {
		t.Fatalf("with a source changed after the build: %v, want the sources", got)
	}
}

func TestCompileCacheIsAddedUnlessChosen(t *testing.T) {
	env := withCompileCache([]string{"A=1"})
	if len(env) != 2 || env[1] != "NODE_COMPILE_CACHE="+filepath.Join(os.TempDir(), "controller-lab-node-compile-cache") {
		t.Fatalf("got %v", env)
	}
	chosen := []string{"NODE_COMPILE_CACHE=/x"}
	if got := withCompileCache(chosen); len(got) != 1 || got[0] != "NODE_COMPILE_CACHE=/x" {
		t.Fatalf("a chosen cache was replaced: %v", got)
	}
}
