package controllerlab

import "sigs.k8s.io/controller-runtime/pkg/client"

// A dry-run write changes nothing on the server: it is recorded on its reconcile like any write,
// but never counted as a change nor remembered as this process's write. The checks cost nothing for
// the usual call without options.

func createIsDryRun(opts []client.CreateOption) bool {
	return len(opts) > 0 && len((&client.CreateOptions{}).ApplyOptions(opts).DryRun) > 0
}

func updateIsDryRun(opts []client.UpdateOption) bool {
	return len(opts) > 0 && len((&client.UpdateOptions{}).ApplyOptions(opts).DryRun) > 0
}

func patchIsDryRun(opts []client.PatchOption) bool {
	return len(opts) > 0 && len((&client.PatchOptions{}).ApplyOptions(opts).DryRun) > 0
}

func deleteIsDryRun(opts []client.DeleteOption) bool {
	return len(opts) > 0 && len((&client.DeleteOptions{}).ApplyOptions(opts).DryRun) > 0
}

func subResourceCreateIsDryRun(opts []client.SubResourceCreateOption) bool {
	return len(opts) > 0 && len((&client.SubResourceCreateOptions{}).ApplyOptions(opts).DryRun) > 0
}

func subResourceUpdateIsDryRun(opts []client.SubResourceUpdateOption) bool {
	return len(opts) > 0 && len((&client.SubResourceUpdateOptions{}).ApplyOptions(opts).DryRun) > 0
}

func subResourcePatchIsDryRun(opts []client.SubResourcePatchOption) bool {
	return len(opts) > 0 && len((&client.SubResourcePatchOptions{}).ApplyOptions(opts).DryRun) > 0
}

func applyIsDryRun(opts []client.ApplyOption) bool {
	return len(opts) > 0 && len((&client.ApplyOptions{}).ApplyOptions(opts).DryRun) > 0
}

func subResourceApplyIsDryRun(opts []client.SubResourceApplyOption) bool {
	return len(opts) > 0 && len((&client.SubResourceApplyOptions{}).ApplyOpts(opts).DryRun) > 0
}
