package simtest

import "syscall"

// A process group of its own, and SIGTERM when the test binary dies (a killed `go test` leaves no
// simulated cluster behind).
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
