/*
Copyright 2026 The Guestbook Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package controller

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	webappv1 "example.com/guestbook/api/v1"
)

var _ = Describe("Guestbook Controller", func() {
	Context("When reconciling a resource", func() {
		const resourceName = "test-resource"

		typeNamespacedName := types.NamespacedName{
			Name:      resourceName,
			Namespace: "default",
		}
		guestbook := &webappv1.Guestbook{}

		BeforeEach(func() {
			By("creating the custom resource for the Kind Guestbook")
			err := k8sClient.Get(ctx, typeNamespacedName, guestbook)
			if err != nil && errors.IsNotFound(err) {
				resource := &webappv1.Guestbook{
					ObjectMeta: metav1.ObjectMeta{
						Name:      resourceName,
						Namespace: "default",
					},
					Spec: webappv1.GuestbookSpec{Message: "Hello from the guestbook", Replicas: ptr.To[int32](2)},
				}
				Expect(k8sClient.Create(ctx, resource)).To(Succeed())
			}
		})

		AfterEach(func() {
			resource := &webappv1.Guestbook{}
			err := k8sClient.Get(ctx, typeNamespacedName, resource)
			Expect(err).NotTo(HaveOccurred())

			By("Cleanup the specific resource instance Guestbook")
			Expect(k8sClient.Delete(ctx, resource)).To(Succeed())
		})

		It("should successfully reconcile the resource", func() {
			By("Reconciling the created resource")
			controllerReconciler := &GuestbookReconciler{
				Client: k8sClient,
				Scheme: k8sClient.Scheme(),
			}

			_, err := controllerReconciler.Reconcile(ctx, reconcile.Request{
				NamespacedName: typeNamespacedName,
			})
			Expect(err).NotTo(HaveOccurred())

			By("creating a ConfigMap with the message, owned by the Guestbook")
			var created webappv1.Guestbook
			Expect(k8sClient.Get(ctx, typeNamespacedName, &created)).To(Succeed())
			var configMap corev1.ConfigMap
			Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "default", Name: resourceName + "-message"}, &configMap)).To(Succeed())
			Expect(configMap.Data).To(HaveKeyWithValue(MessageKey, "Hello from the guestbook"))
			Expect(metav1.IsControlledBy(&configMap, &created)).To(BeTrue())

			By("creating a frontend Deployment with the replicas asked for, owned by the Guestbook")
			var deployment appsv1.Deployment
			Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "default", Name: resourceName + "-frontend"}, &deployment)).To(Succeed())
			Expect(deployment.Spec.Replicas).To(HaveValue(Equal(int32(2))))
			Expect(deployment.Spec.Template.Spec.Containers).To(HaveLen(1))
			Expect(deployment.Spec.Template.Spec.Containers[0].Env[0].ValueFrom.ConfigMapKeyRef.Name).To(Equal(configMap.Name))
			Expect(metav1.IsControlledBy(&deployment, &created)).To(BeTrue())

			By("reporting the children and a frontend that is not ready yet in status")
			Expect(created.Status.ConfigMap).To(Equal(configMap.Name))
			Expect(created.Status.Deployment).To(Equal(deployment.Name))
			Expect(created.Status.ObservedGeneration).To(Equal(created.Generation))
			Expect(meta.IsStatusConditionFalse(created.Status.Conditions, ConditionAvailable)).To(BeTrue())
		})

		It("should follow a changed message and a frontend that became ready", func() {
			controllerReconciler := &GuestbookReconciler{Client: k8sClient, Scheme: k8sClient.Scheme()}
			_, err := controllerReconciler.Reconcile(ctx, reconcile.Request{NamespacedName: typeNamespacedName})
			Expect(err).NotTo(HaveOccurred())

			By("changing the message and marking the frontend's replicas ready")
			Expect(k8sClient.Get(ctx, typeNamespacedName, guestbook)).To(Succeed())
			guestbook.Spec.Message = "Goodbye"
			Expect(k8sClient.Update(ctx, guestbook)).To(Succeed())
			var deployment appsv1.Deployment
			Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "default", Name: resourceName + "-frontend"}, &deployment)).To(Succeed())
			// No kubelet here (as in envtest): the test plays the Deployment controller's part.
			deployment.Status.Replicas = 2
			deployment.Status.ReadyReplicas = 2
			Expect(k8sClient.Status().Update(ctx, &deployment)).To(Succeed())

			_, err = controllerReconciler.Reconcile(ctx, reconcile.Request{NamespacedName: typeNamespacedName})
			Expect(err).NotTo(HaveOccurred())

			var configMap corev1.ConfigMap
			Expect(k8sClient.Get(ctx, types.NamespacedName{Namespace: "default", Name: resourceName + "-message"}, &configMap)).To(Succeed())
			Expect(configMap.Data).To(HaveKeyWithValue(MessageKey, "Goodbye"))
			var updated webappv1.Guestbook
			Expect(k8sClient.Get(ctx, typeNamespacedName, &updated)).To(Succeed())
			Expect(updated.Status.ReadyReplicas).To(Equal(int32(2)))
			Expect(updated.Status.ObservedGeneration).To(Equal(updated.Generation))
			Expect(meta.IsStatusConditionTrue(updated.Status.Conditions, ConditionAvailable)).To(BeTrue())

			By("writing nothing when nothing changed")
			rv := updated.ResourceVersion
			_, err = controllerReconciler.Reconcile(ctx, reconcile.Request{NamespacedName: typeNamespacedName})
			Expect(err).NotTo(HaveOccurred())
			Expect(k8sClient.Get(ctx, typeNamespacedName, &updated)).To(Succeed())
			Expect(updated.ResourceVersion).To(Equal(rv))
		})
	})
})

var _ = Describe("Guestbook validation", func() {
	It("refuses more replicas than the CRD's validation rule allows, with the rule's message", func() {
		resource := &webappv1.Guestbook{
			ObjectMeta: metav1.ObjectMeta{Name: "too-many", Namespace: "default"},
			Spec:       webappv1.GuestbookSpec{Message: "Hello", Replicas: ptr.To[int32](11)},
		}
		err := k8sClient.Create(ctx, resource)
		Expect(errors.IsInvalid(err)).To(BeTrue(), "got %v", err)
		Expect(err.Error()).To(ContainSubstring(`spec: Invalid value: "object": a guestbook runs at most 10 frontend replicas`))
	})
})
