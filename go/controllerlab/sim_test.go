package controllerlab_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// The project's simulated cluster (`controller-lab sim`), started once for the package's end-to-end
// tests with the repository's own Node (node_modules/.bin/node, Node 24) over HTTPS with its
// kubeconfig: the same API server the TypeScript controllers and kubectl are tested against.

type simCluster struct {
	cmd        *exec.Cmd
	kubeconfig string
	dir        string
	err        error
}

var (
	simOnce   sync.Once
	sharedSim simCluster
)

// repoRoot is the checkout this module lives in (go/ sits at its top).
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "src", "cli", "main.ts")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("src/cli/main.ts not found above the test's directory: the Go module must stay inside the Controller Lab repository")
		}
		dir = parent
	}
}

// simConfig starts the simulated cluster on first use and returns a rest.Config for it. A missing
// Node fails the test with what to do: these tests must not pass by skipping.
func simConfig(t *testing.T) *rest.Config {
	t.Helper()
	simOnce.Do(func() { sharedSim.err = sharedSim.start() })
	if sharedSim.err != nil {
		t.Fatalf("simulated cluster: %v", sharedSim.err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", sharedSim.kubeconfig)
	if err != nil {
		t.Fatalf("kubeconfig %s: %v", sharedSim.kubeconfig, err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	return cfg
}

func (s *simCluster) start() error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	node := filepath.Join(root, "node_modules", ".bin", "node")
	if _, err := os.Stat(node); err != nil {
		return fmt.Errorf("Node 24 not found at %s (run `npm ci` in %s first): %w", node, root, err)
	}
	s.dir, err = os.MkdirTemp("", "controller-lab-go-sim-")
	if err != nil {
		return err
	}
	s.kubeconfig = filepath.Join(s.dir, "kubeconfig")
	s.cmd = exec.Command(node, filepath.Join(root, "src", "cli", "main.ts"), "sim", "--port", "0", "--kubeconfig-out", s.kubeconfig)
	s.cmd.Dir = root
	s.cmd.Stderr = os.Stderr
	setParentDeathSignal(s.cmd)
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", node, err)
	}
	ready := make(chan error, 1)
	go func() {
		scanner := bufio.NewScanner(out)
		signalled := false
		for scanner.Scan() {
			if !signalled && strings.HasPrefix(scanner.Text(), "Kubeconfig: ") {
				signalled = true
				ready <- nil
			}
		}
		if !signalled {
			ready <- errors.New("the simulated cluster exited before printing its kubeconfig")
		}
	}()
	select {
	case err := <-ready:
		return err
	case <-time.After(60 * time.Second):
		return errors.New("the simulated cluster did not start within 60 s")
	}
}

func (s *simCluster) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
	}
	_ = os.RemoveAll(s.dir)
}

func TestMain(m *testing.M) {
	code := m.Run()
	sharedSim.stop()
	os.Exit(code)
}
