package simtest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

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
	return nil, errors.New("the controller-lab command was not found. Install it with npm (`npm install -g controller-lab-<version>.tgz`, the package `npm pack` makes in a Controller Lab checkout; `npm install -g controller-lab` once published), run the test in a VS Code terminal with the Controller Lab extension (it puts its bundled command on the PATH), or set CONTROLLER_LAB to the command")
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
