//go:build !linux

package controllerlab_test

import "os/exec"

func setParentDeathSignal(*exec.Cmd) {}
