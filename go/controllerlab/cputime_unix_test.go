//go:build unix

package controllerlab

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) the whole process has used so far.
func processCPU() (time.Duration, bool) {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0, false
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano()), true
}
