//go:build !linux

package simtest

import "syscall"

// A process group of its own, so Stop reaches npx's children too.
func processAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
