package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GuestbookSpec defines the desired state of Guestbook.
// +kubebuilder:validation:XValidation:rule="self.replicas <= 10",message="a guestbook runs at most 10 frontend replicas"
type GuestbookSpec struct {
	// Message is the greeting the guestbook shows; it is stored in the Guestbook's ConfigMap.
	// +kubebuilder:validation:MinLength=1
	Message string `json:"message"`

	// Replicas is the number of frontend Pods.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Image is the frontend's container image.
	// +kubebuilder:default="nginx:1.27"
	// +optional
	Image string `json:"image,omitempty"`
}

// GuestbookStatus defines the observed state of Guestbook.
type GuestbookStatus struct {
	// ConfigMap is the name of the ConfigMap holding the message.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`

	// Deployment is the name of the frontend Deployment.
	// +optional
	Deployment string `json:"deployment,omitempty"`

	// ReadyReplicas is the frontend Deployment's number of ready Pods.
	// +optional
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`

	// ObservedGeneration is the generation of the spec this status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: Available is True once every frontend replica is ready.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
// +kubebuilder:printcolumn:name="Ready",type=integer,JSONPath=`.status.readyReplicas`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`

// Guestbook is the Schema for the guestbooks API: a frontend Deployment and the ConfigMap with
// its message, both owned by the Guestbook.
type Guestbook struct {
	metav1.TypeMeta `json:",inline"`

	// metadata is a standard object metadata
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec defines the desired state of Guestbook
	// +required
	Spec GuestbookSpec `json:"spec"`

	// status defines the observed state of Guestbook
	// +optional
	Status GuestbookStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// GuestbookList contains a list of Guestbook.
type GuestbookList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Guestbook `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Guestbook{}, &GuestbookList{})
}
