package simtest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-logr/logr"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
)

// The metrics endpoint kubebuilder scaffolds (secure metrics: WithAuthenticationAndAuthorization)
// asks the cluster who a caller is (TokenReview) and whether it may GET /metrics
// (SubjectAccessReview). On the simulated cluster a ServiceAccount's token is authenticated and
// held to RBAC: refused until a ClusterRole like the scaffold's metrics-reader is bound to it.
func TestSecureMetricsAskTheClusterWhoMayRead(t *testing.T) {
	cfg := Start(t, &Environment{})
	ctx := context.Background()
	clients := kubernetes.NewForConfigOrDie(cfg)

	httpClient, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	filter, err := filters.WithAuthenticationAndAuthorization(cfg, httpClient)
	if err != nil {
		t.Fatal(err)
	}
	handler, err := filter(logr.Discard(), http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "controller_runtime_reconcile_total 1\n")
	}))
	if err != nil {
		t.Fatal(err)
	}
	metrics := httptest.NewServer(handler)
	defer metrics.Close()

	tokenFor := func(name string) string {
		if _, err := clients.CoreV1().ServiceAccounts("default").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		answer, err := clients.CoreV1().ServiceAccounts("default").CreateToken(ctx, name, &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return answer.Status.Token
	}
	scrape := func(token string) int {
		req, _ := http.NewRequest(http.MethodGet, metrics.URL+"/metrics", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		return res.StatusCode
	}

	if code := scrape(""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	// The TokenReview's "invalid bearer token" is an error to the delegating authenticator, which
	// controller-runtime answers with 500, on a real cluster as here.
	if code := scrape("not-a-token"); code != http.StatusInternalServerError {
		t.Errorf("a token the cluster does not know: %d, want 500", code)
	}
	if code := scrape(tokenFor("stranger")); code != http.StatusForbidden {
		t.Errorf("a ServiceAccount without the metrics-reader role: %d, want 403", code)
	}

	reader := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: "metrics-reader"},
		Rules:      []rbacv1.PolicyRule{{NonResourceURLs: []string{"/metrics"}, Verbs: []string{"get"}}},
	}
	if _, err := clients.RbacV1().ClusterRoles().Create(ctx, reader, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "prometheus-reads-metrics"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "metrics-reader"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: "prometheus", Namespace: "default"}},
	}
	if _, err := clients.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if code := scrape(tokenFor("prometheus")); code != http.StatusOK {
		t.Errorf("a ServiceAccount bound to metrics-reader: %d, want 200", code)
	}
}
