package simtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// checkoutCommand runs the CLI of a Controller Lab checkout: its bundle (dist/cli.cjs) when the
// build is at least as new as every source file, since loading one bundled file starts several
// times faster than stripping the types of hundreds of sources; the sources otherwise.
func checkoutCommand(dir string) []string {
	node := filepath.Join(dir, "node_modules", ".bin", "node")
	bundle := filepath.Join(dir, "dist", "cli.cjs")
	if st, err := os.Stat(bundle); err == nil && !newerSource(filepath.Join(dir, "src"), st.ModTime()) {
		return []string{node, bundle}
	}
	return []string{node, filepath.Join(dir, "src", "cli", "main.ts")}
}

// newerSource reports whether a TypeScript file under root changed after t (or root cannot be read).
func newerSource(root string, t time.Time) bool {
	newer := false
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || newer {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".ts") {
			return nil
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(t) {
			newer = true
			return filepath.SkipAll
		}
		return nil
	})
	return newer || err != nil
}

// withCompileCache gives Node a compile cache shared by every start (kept in the temporary
// directory), unless the environment chose one: each suite's sim then reuses compiled code.
func withCompileCache(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "NODE_COMPILE_CACHE=") {
			return env
		}
	}
	return append(env, "NODE_COMPILE_CACHE="+filepath.Join(os.TempDir(), "controller-lab-node-compile-cache"))
}
