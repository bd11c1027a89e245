// Package simtest starts Controller Lab's simulated cluster for Go tests: an API server that
// client-go, controller-runtime and kubectl use like kube-apiserver, up in well under a second,
// with no etcd or kube-apiserver binaries to download. It plays the part envtest plays in a
// kubebuilder project, and its Environment has envtest.Environment's fields, so a suite switches
// by changing the type's package and nothing else:
//
//	testEnv = &simtest.Environment{
//		CRDDirectoryPaths:     []string{filepath.Join("..", "..", "config", "crd", "bases")},
//		ErrorIfCRDPathMissing: true,
//	}
//	cfg, err = testEnv.Start()   // BeforeSuite
//	err = testEnv.Stop()         // AfterSuite
//
// In a plain Go test, Start(t, env) starts one and stops it when the test ends:
//
//	cfg := simtest.Start(t, &simtest.Environment{CRDDirectoryPaths: []string{"../config/crd/bases"}})
//
// Like envtest, the simulated cluster is an API server alone: no garbage collector deletes owned
// objects and no namespace controller empties a deleted namespace. ControllerManager turns
// kube-controller-manager's part on, Workloads the Deployment, ReplicaSet, Job… controllers.
//
// The simulated cluster runs as a `controller-lab sim` process, found (in order) through
// $CONTROLLER_LAB (a command: the VS Code extension sets it in its terminals), `controller-lab` on
// the PATH (`npm install -g controller-lab-*.tgz`), or a Controller Lab checkout above the working
// directory.
package simtest

import (
	"testing"

	"k8s.io/client-go/rest"
)

// Start starts env's simulated cluster for the test and stops it when the test ends.
func Start(t testing.TB, env *Environment) *rest.Config {
	t.Helper()
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
