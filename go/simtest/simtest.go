// Package simtest starts Controller Lab's simulated cluster for Go tests: an API server that
// client-go, controller-runtime and kubectl use like kube-apiserver, up in well under a second,
// with no etcd or kube-apiserver binaries to download. It plays the part envtest plays in a
// kubebuilder project:
//
//	cfg := simtest.Start(t, simtest.Options{CRDDirectoryPaths: []string{"../config/crd/bases"}})
//	k8sClient, _ := client.New(cfg, client.Options{Scheme: scheme})
//
// In a Ginkgo suite without a *testing.T, use an Environment:
//
//	env := &simtest.Environment{CRDDirectoryPaths: []string{filepath.Join("..", "config", "crd", "bases")}}
//	cfg, err := env.Start()   // BeforeSuite
//	err = env.Stop()          // AfterSuite
//
// The simulated cluster runs as a `controller-lab sim` process, found (in order) through
// $CONTROLLER_LAB (a command, e.g. "npx controller-lab"), `controller-lab` on the PATH, or a
// Controller Lab checkout above the working directory (node_modules/.bin/node src/cli/main.ts).
package simtest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Options configure the simulated cluster a test gets.
type Options struct {
	// CRDDirectoryPaths are directories or files of CRD manifests installed before Start returns,
	// as envtest.Environment's field of the same name.
	CRDDirectoryPaths []string
	// ErrorIfCRDPathMissing fails Start when a path does not exist (envtest's option).
	ErrorIfCRDPathMissing bool
	// Workloads runs the simulated cluster's Deployment/ReplicaSet/StatefulSet/DaemonSet/Job
	// controllers, a scheduler and fake Nodes, so workloads roll out (off, as in envtest).
	Workloads bool
	// ControllerManager runs kube-controller-manager's built-in controllers, so new namespaces get
	// their kube-root-ca.crt ConfigMap and default ServiceAccount as on a real cluster. Off by
	// default, as in envtest (an API server alone), which suites written for envtest count on.
	ControllerManager bool
	// StartTimeout bounds how long the process may take to serve (default 30 s).
	StartTimeout time.Duration
	// WebhookInstallOptions, as envtest.Environment's field of the same name: its webhook
	// configurations are installed (pointing at LocalServingHost:LocalServingPort, with a CA made for
	// the test in LocalServingCertDir) and the simulated cluster calls them on the writes they
	// match. A pointer, so a test reads back the port and certificate directory its webhook server
	// is to use.
	WebhookInstallOptions *envtest.WebhookInstallOptions
}

// Environment is the simulated cluster for suites that start and stop it themselves.
type Environment struct {
	Options
	// Config is set by Start.
	Config *rest.Config
	// KubeconfigPath is the kubeconfig the process wrote (for kubectl in a test's logs).
	KubeconfigPath string

	cmd     *exec.Cmd
	dir     string
	exited  chan struct{}
	output  *lockedBuffer
	stopped bool
}

// Start starts a simulated cluster for the test and stops it when the test ends.
func Start(t testing.TB, opts Options) *rest.Config {
	t.Helper()
	env := &Environment{Options: opts}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("simtest: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("simtest: %v", err)
		}
	})
	return cfg
}

var kubeconfigLine = regexp.MustCompile(`(?m)^Kubeconfig: (\S+)$`)

// Start runs `controller-lab sim`, waits until it serves, installs the CRDs and answers its rest.Config.
func (e *Environment) Start() (*rest.Config, error) {
	command, err := simCommand()
	if err != nil {
		return nil, err
	}
	e.dir, err = os.MkdirTemp("", "controller-lab-simtest-")
	if err != nil {
		return nil, err
	}
	args := append(command[1:], "sim", "--port", "0", "--state-dir", e.dir)
	if e.Workloads {
		args = append(args, "--workloads")
	}
	if !e.ControllerManager {
		args = append(args, "--api-server-only")
	}
	e.cmd = exec.Command(command[0], args...)
	e.cmd.Dir = command0Dir(command)
	e.cmd.Env = withCompileCache(os.Environ())
	// Its own process group, so Stop reaches npx's children too; on Linux it also ends with the test.
	e.cmd.SysProcAttr = processAttributes()
	e.output = &lockedBuffer{}
	stdout, err := e.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	e.cmd.Stderr = e.output
	if err := e.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", strings.Join(command, " "), err)
	}
	e.exited = make(chan struct{})
	found := make(chan string, 1)
	go e.readStdout(stdout, found)
	go func() { _ = e.cmd.Wait(); close(e.exited) }()

	timeout := e.StartTimeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	select {
	case e.KubeconfigPath = <-found:
	case <-e.exited:
		return nil, fmt.Errorf("controller-lab sim exited before it served:\n%s", e.output.String())
	case <-time.After(timeout):
		_ = e.Stop()
		return nil, fmt.Errorf("controller-lab sim did not serve within %s:\n%s", timeout, e.output.String())
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", e.KubeconfigPath)
	if err != nil {
		_ = e.Stop()
		return nil, fmt.Errorf("reading the sim's kubeconfig: %w", err)
	}
	// Tests create objects in bursts; client-go's default 5 qps would make them wait for nothing.
	cfg.QPS, cfg.Burst = 1000, 2000
	if len(e.CRDDirectoryPaths) > 0 {
		if _, err := envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: e.CRDDirectoryPaths, ErrorIfPathMissing: e.ErrorIfCRDPathMissing}); err != nil {
			_ = e.Stop()
			return nil, fmt.Errorf("installing CRDs: %w", err)
		}
	}
	if w := e.WebhookInstallOptions; w != nil && (len(w.MutatingWebhooks) > 0 || len(w.ValidatingWebhooks) > 0 || len(w.Paths) > 0) {
		if err := w.Install(cfg); err != nil {
			_ = e.Stop()
			return nil, fmt.Errorf("installing webhook configurations: %w", err)
		}
	}
	e.Config = cfg
	return cfg, nil
}

func (e *Environment) readStdout(stdout io.Reader, found chan<- string) {
	scanner := bufio.NewScanner(stdout)
	var text strings.Builder
	sent := false
	for scanner.Scan() {
		line := scanner.Text()
		_, _ = e.output.Write([]byte(line + "\n"))
		if sent {
			continue
		}
		text.WriteString(line + "\n")
		if m := kubeconfigLine.FindStringSubmatch(text.String()); m != nil {
			found <- m[1]
			sent = true
		}
	}
}

// Stop ends the process and removes its state directory.
func (e *Environment) Stop() error {
	if e.cmd == nil || e.stopped {
		return nil
	}
	e.stopped = true
	if e.WebhookInstallOptions != nil {
		_ = e.WebhookInstallOptions.Cleanup()
	}
	if e.cmd.Process != nil {
		_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-e.exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
			<-e.exited
		}
	}
	return os.RemoveAll(e.dir)
}

// simCommand finds how to run `controller-lab`.
func simCommand() ([]string, error) {
	if c := strings.Fields(os.Getenv("CONTROLLER_LAB")); len(c) > 0 {
		return c, nil
	}
	if p, err := exec.LookPath("controller-lab"); err == nil {
		return []string{p}, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if bin := filepath.Join(dir, "node_modules", ".bin", "controller-lab"); isFile(bin) {
			return []string{bin}, nil
		}
		if isFile(filepath.Join(dir, "src", "cli", "main.ts")) && isFile(filepath.Join(dir, "node_modules", ".bin", "node")) {
			return checkoutCommand(dir), nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return nil, errors.New("controller-lab not found: install it (npm install -g controller-lab), or set CONTROLLER_LAB to the command, e.g. CONTROLLER_LAB=\"npx controller-lab\"")
}

func command0Dir(command []string) string {
	if len(command) > 1 && strings.HasSuffix(command[1], filepath.Join("src", "cli", "main.ts")) {
		return filepath.Dir(filepath.Dir(filepath.Dir(command[1])))
	}
	if len(command) > 1 && strings.HasSuffix(command[1], filepath.Join("dist", "cli.cjs")) {
		return filepath.Dir(filepath.Dir(command[1]))
	}
	return ""
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
