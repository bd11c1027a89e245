package controllerlab

import "testing"

// Only a list or watch of a collection is an informer's request; one object's path is not.
func TestListedResourceNamesTheCollectionAnInformerReads(t *testing.T) {
	cases := map[string]string{
		"/api/v1/configmaps":                            "configmaps",
		"/api/v1/namespaces/default/configmaps":         "configmaps",
		"/apis/apps/v1/deployments":                     "deployments.apps",
		"/apis/apps/v1/namespaces/shop/deployments":     "deployments.apps",
		"/api/v1/namespaces":                            "namespaces",
		"/api/v1/namespaces/default/configmaps/web":     "",
		"/apis/apps/v1/namespaces/shop/deployments/web": "",
		"/api/v1/namespaces/default":                    "",
		"/apis":                                         "",
		"/api/v1":                                       "",
	}
	for path, want := range cases {
		got, ok := listedResource(path)
		if got != want || ok != (want != "") {
			t.Errorf("%s: %q %v, want %q", path, got, ok, want)
		}
	}
}
