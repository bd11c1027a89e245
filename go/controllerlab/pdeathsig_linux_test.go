package controllerlab_test

import (
	"os/exec"
	"syscall"
)

// The simulated cluster dies with the test binary, even when the binary is killed.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
