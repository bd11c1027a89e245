import type { Project } from './project.ts';

// A project that vendors its modules (vendor/modules.txt) builds from vendor/ alone: after go.mod
// gains the module's require and replace, or go mod tidy moved a version, every go build, go vet
// and make test fails with "inconsistent vendoring" until `go mod vendor` runs again.

export const VENDOR_LIST = 'vendor/modules.txt';

/** `go mod vendor` when the project vendors, after go.mod changed. */
export async function syncVendor(project: Project): Promise<void> {
  if (!project.exists(VENDOR_LIST)) return;
  if (!project.dryRun) await project.go.go(['mod', 'vendor'], project.dir);
  project.changed(VENDOR_LIST, "go mod vendor (the project vendors its modules: Controller Lab's copy and what go mod tidy changed)");
}
