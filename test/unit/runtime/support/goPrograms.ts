import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Small Go programs for the bad-input tests, written into a fresh `_cltest-*` directory inside the
// repository's Go module (so they build against controllerlab and the module's dependencies; `go
// test ./...` skips directories starting with `_`). Each test removes its own.

export const GO_MODULE = fileURLToPath(new URL('../../../../go', import.meta.url));
export const GO_EXAMPLE = join(GO_MODULE, 'examples/configmap-mirror');
export const GO_EXAMPLE_SCENARIO = join(GO_EXAMPLE, 'scenario.yaml');

export function writeGoProgram(source: string): { dir: string; mainFile: string; dispose(): void } {
  const dir = mkdtempSync(join(GO_MODULE, '_cltest-'));
  const mainFile = join(dir, 'main.go');
  writeFileSync(mainFile, source);
  return { dir, mainFile, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

const MANAGER_IMPORTS = `import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
%s)
`;

function managerProgram(wrap: boolean, reconcileBody: string): string {
  return `package main

${MANAGER_IMPORTS.replace('%s', wrap ? '\n\t"github.com/controller-lab/controller-lab/go/controllerlab"\n' : '')}
type reconciler struct{}

func (reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
${reconcileBody}
	return reconcile.Result{}, nil
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		os.Exit(1)
	}
${wrap ? '\tmgr = controllerlab.Wrap(mgr)\n' : ''}	if err := ctrl.NewControllerManagedBy(mgr).Named("panicky").For(&corev1.ConfigMap{}).Complete(reconciler{}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
`;
}

/** Panics when it reconciles the ConfigMap named "boom"; every other one is fine. */
export const PANICKING_PROGRAM = managerProgram(true, '\tif req.Name == "boom" {\n\t\tpanic("kaboom: cannot mirror " + req.Name)\n\t}');

/** An ordinary controller-runtime program that never calls controllerlab.Wrap. */
export const UNWRAPPED_PROGRAM = managerProgram(false, '');

/** Writes nothing and asks to reconcile every key again in 30 s: a periodic resync. */
export const PERIODIC_PROGRAM = managerProgram(true, '\treturn reconcile.Result{RequeueAfter: 30_000_000_000}, nil');

/** Calls controllerlab.Wrap (so it connects), then never starts its manager. */
export const NEVER_STARTED_PROGRAM = managerProgram(true, '').replace('\tif err := mgr.Start(', '\tselect {}\n\tif err := mgr.Start(');

/** Runs and never connects (nor does anything else). */
export const SILENT_PROGRAM = 'package main\n\nimport "time"\n\nfunc main() {\n\ttime.Sleep(time.Hour)\n}\n';

/** Exits at once, before it could connect, saying which arguments it got. */
export const EXITING_PROGRAM = 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Fprintln(os.Stderr, "no cluster for me; args:", os.Args[1:])\n\tos.Exit(3)\n}\n';

/** Does not compile: line 4 uses a name that does not exist. */
export const BROKEN_PROGRAM = 'package main\n\nfunc main() {\n\tundefinedThing()\n}\n';

export const PANIC_SCENARIO = `seed: 1
objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: boom, namespace: default }
    data: { a: "1" }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: fine, namespace: default }
    data: { b: "2" }
`;

/** One manager, two controllers: "configs" for ConfigMaps and "secrets" for Secrets (both write nothing). */
export const TWO_CONTROLLERS_PROGRAM = `package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

type noop struct{}

func (noop) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).Named("configs").For(&corev1.ConfigMap{}).Complete(noop{}); err != nil {
		os.Exit(1)
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("secrets").For(&corev1.Secret{}).Complete(noop{}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
`;

/** Watches example.com/v1 Widget, a kind whose CRD nobody installs. */
export const UNSERVED_KIND_PROGRAM = `package main

import (
	"context"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr)
	widget := &unstructured.Unstructured{}
	widget.SetGroupVersionKind(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"})
	reconciler := reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) { return reconcile.Result{}, nil })
	if err := ctrl.NewControllerManagedBy(mgr).Named("widgets").For(widget).Complete(reconciler); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
`;

/**
 * test/fixtures/plantedBug in Go: each ConfigMap labelled role=parent gets one child with a
 * generated name, recorded in the parent's annotation only after the child is created — killed
 * between the two writes, it makes a second child when it starts again.
 */
export const PLANTED_BUG_PROGRAM = `package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

type childMaker struct{ client.Client }

func (r *childMaker) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var parent corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &parent); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if parent.Labels["role"] != "parent" || parent.Annotations["example.com/child"] != "" {
		return reconcile.Result{}, nil
	}
	child := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{GenerateName: parent.Name + "-", Namespace: parent.Namespace, Labels: map[string]string{"role": "child"}},
		Data:       parent.Data,
	}
	if err := controllerutil.SetControllerReference(&parent, child, r.Scheme()); err != nil {
		return reconcile.Result{}, err
	}
	if err := r.Create(ctx, child); err != nil {
		return reconcile.Result{}, err
	}
	if parent.Annotations == nil {
		parent.Annotations = map[string]string{}
	}
	parent.Annotations["example.com/child"] = child.Name
	return reconcile.Result{}, r.Update(ctx, &parent)
}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: clientgoscheme.Scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).Named("child-maker").For(&corev1.ConfigMap{}).Complete(&childMaker{Client: mgr.GetClient()}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
`;

/**
 * kubebuilder's main with a webhook, as it runs outside a cluster: its webhook server has no
 * serving certificate (cert-manager makes it in a cluster) unless Controller Lab gives it one, and
 * a manager that fails logs `Failed to run manager` as kubebuilder's main does.
 */
export const WEBHOOK_WITHOUT_CERTS_PROGRAM = `package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

type noop struct{}

func (noop) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func main() {
	ctrl.SetLogger(zap.New())
	setupLog := ctrl.Log.WithName("setup")
	certDir := filepath.Join(os.TempDir(), "controller-lab-no-such-dir", "serving-certs")
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:        clientgoscheme.Scheme,
		Metrics:       metricsserver.Options{BindAddress: "0"},
		WebhookServer: webhook.NewServer(webhook.Options{CertDir: certDir}),
	})
	if err != nil {
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr)
	mgr.GetWebhookServer().Register("/validate-configmap", http.NotFoundHandler())
	if err := ctrl.NewControllerManagedBy(mgr).Named("configs").For(&corev1.ConfigMap{}).Complete(noop{}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "Failed to run manager")
		os.Exit(1)
	}
}
`;

/**
 * A manager with leader election on and no LeaderElectionNamespace, as a kubebuilder main is with
 * --leader-elect: outside a cluster NewManager fails (the namespace comes from a Pod's service
 * account), before controllerlab.Wrap is reached.
 */
export const LEADER_ELECTION_WITHOUT_NAMESPACE_PROGRAM = `package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/controller-lab/controller-lab/go/controllerlab"
)

type noop struct{}

func (noop) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return reconcile.Result{}, nil
}

func main() {
	ctrl.SetLogger(zap.New())
	setupLog := ctrl.Log.WithName("setup")
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:           clientgoscheme.Scheme,
		Metrics:          metricsserver.Options{BindAddress: "0"},
		LeaderElection:   true,
		LeaderElectionID: "noop.example.com",
	})
	if err != nil {
		setupLog.Error(err, "Failed to start manager")
		os.Exit(1)
	}
	mgr = controllerlab.Wrap(mgr)
	if err := ctrl.NewControllerManagedBy(mgr).Named("configs").For(&corev1.ConfigMap{}).Complete(noop{}); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		setupLog.Error(err, "Failed to run manager")
		os.Exit(1)
	}
}
`;
