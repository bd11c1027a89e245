package simtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// simProcess is one `controller-lab sim` process and the temporary directory of its kubeconfig.
type simProcess struct {
	cmd            *exec.Cmd
	dir            string
	exited         chan struct{}
	output         *lockedBuffer
	kubeconfigPath string
}

var kubeconfigLine = regexp.MustCompile(`(?m)^Kubeconfig: (\S+)$`)

// startSimProcess runs `controller-lab sim ARGS…` and waits until it prints its kubeconfig.
func startSimProcess(args []string, timeout time.Duration, attach bool) (*simProcess, error) {
	command, err := simCommand()
	if err != nil {
		return nil, err
	}
	p := &simProcess{output: &lockedBuffer{}, exited: make(chan struct{})}
	if p.dir, err = os.MkdirTemp("", "controller-lab-simtest-"); err != nil {
		return nil, err
	}
	args = append(append(command[1:], "sim"), append(args, "--kubeconfig-out", filepath.Join(p.dir, "kubeconfig"))...)
	p.cmd = exec.Command(command[0], args...)
	p.cmd.Dir = command0Dir(command)
	p.cmd.Env = withCompileCache(os.Environ())
	// Its own process group, so stop reaches npx's children too; on Linux it also ends with the test.
	p.cmd.SysProcAttr = processAttributes()
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr io.Writer = p.output
	if attach {
		stderr = io.MultiWriter(p.output, os.Stderr)
	}
	p.cmd.Stderr = stderr
	if err := p.cmd.Start(); err != nil {
		_ = os.RemoveAll(p.dir)
		return nil, fmt.Errorf("starting %s: %w", strings.Join(command, " "), err)
	}
	found := make(chan string, 1)
	go p.readStdout(stdout, found, attach)
	go func() { _ = p.cmd.Wait(); close(p.exited) }()

	if timeout == 0 {
		timeout = 30 * time.Second
	}
	select {
	case p.kubeconfigPath = <-found:
		return p, nil
	case <-p.exited:
		_ = os.RemoveAll(p.dir)
		return nil, fmt.Errorf("controller-lab sim exited before it served:\n%s", p.output.String())
	case <-time.After(timeout):
		_ = p.stop(0)
		return nil, fmt.Errorf("controller-lab sim did not serve within %s:\n%s", timeout, p.output.String())
	}
}

func (p *simProcess) readStdout(stdout io.Reader, found chan<- string, attach bool) {
	scanner := bufio.NewScanner(stdout)
	var text strings.Builder
	sent := false
	for scanner.Scan() {
		line := scanner.Text()
		_, _ = p.output.Write([]byte(line + "\n"))
		if attach {
			fmt.Fprintln(os.Stdout, line)
		}
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

// restConfig is the admin's rest.Config from the process's kubeconfig.
func (p *simProcess) restConfig() (*rest.Config, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", p.kubeconfigPath)
	if err != nil {
		return nil, fmt.Errorf("reading the sim's kubeconfig: %w", err)
	}
	// Tests create objects in bursts; client-go's default 5 qps would make them wait for nothing.
	cfg.QPS, cfg.Burst = 1000, 2000
	return cfg, nil
}

// stop ends the process group (SIGTERM, then SIGKILL after timeout) and removes the directory.
func (p *simProcess) stop(timeout time.Duration) error {
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(timeout):
			_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			<-p.exited
		}
	}
	return os.RemoveAll(p.dir)
}
