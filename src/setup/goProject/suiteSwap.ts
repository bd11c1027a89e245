import { dropEnvtestBinaryLookup } from './envtestBinaryLookup.ts';
import { addImport, removeImport } from './goImports.ts';
import { GoSource } from './goScanner.ts';
import type { Project } from './project.ts';

// A kubebuilder test suite starts envtest's Environment (etcd and kube-apiserver binaries that
// setup-envtest downloads). simtest.Environment has the same fields, Start() and Stop(), on
// Controller Lab's simulated cluster: swapping the type's name is the change, and kubebuilder's
// lookup of envtest's binaries goes with it (envtestBinaryLookup.ts). envtest's import stays while
// something else of it is used (a webhook suite's envtest.WebhookInstallOptions).

export const SIMTEST_PACKAGE = 'github.com/controller-lab/controller-lab/go/simtest';
const ENVTEST_PACKAGE = 'sigs.k8s.io/controller-runtime/pkg/envtest';

const ENVTEST_ENVIRONMENT = /\benvtest\s*\.\s*Environment\b/;

export type SuiteSwapResult =
  | { kind: 'switched'; text: string; count: number; envtestImportKept: boolean; binaryLookupDropped: boolean }
  | { kind: 'alreadySimtest'; text?: string }
  | { kind: 'noEnvtest' };

export function switchSuiteToSimtest(text: string): SuiteSwapResult {
  const src = new GoSource(text);
  const uses = src.matches(ENVTEST_ENVIRONMENT);
  if (uses.length === 0) {
    if (!src.find(/\bsimtest\s*\.\s*Environment\b/)) return { kind: 'noEnvtest' };
    // Switched by an earlier init go that left kubebuilder's binary lookup in.
    const dropped = dropEnvtestBinaryLookup(text);
    return dropped === undefined ? { kind: 'alreadySimtest' } : { kind: 'alreadySimtest', text: dropped };
  }
  let out = '';
  let from = 0;
  for (const m of uses) {
    out += `${text.slice(from, m.index)}simtest.Environment`;
    from = m.index + m[0].length;
  }
  out += text.slice(from);
  out = addImport(out, SIMTEST_PACKAGE, /"sigs\.k8s\.io\/controller-runtime\/pkg\/envtest"/);
  const envtestStillUsed = new GoSource(out).find(/\benvtest\s*\./) !== undefined;
  if (!envtestStillUsed) out = removeImport(out, ENVTEST_PACKAGE);
  const dropped = dropEnvtestBinaryLookup(out);
  if (dropped !== undefined) out = dropped;
  return { kind: 'switched', text: out, count: uses.length, envtestImportKept: envtestStillUsed, binaryLookupDropped: dropped !== undefined };
}

const LOOKUP_DROPPED = "getFirstFoundEnvTestBinaryDir removed, simtest has no binaries to find";

/** Switches every test file that starts an envtest.Environment to simtest. */
export function switchSuites(project: Project): void {
  for (const file of project.goFiles().filter((f) => f.endsWith('_test.go'))) {
    const result = switchSuiteToSimtest(project.read(file) ?? '');
    if (result.kind === 'switched') {
      const envtest = result.envtestImportKept ? 'envtest stays imported for the rest it uses' : 'envtest import removed';
      const lookup = result.binaryLookupDropped ? `; ${LOOKUP_DROPPED}` : '';
      project.write(file, result.text, `envtest.Environment → simtest.Environment (${envtest}${lookup})`);
    } else if (result.kind === 'alreadySimtest' && result.text !== undefined) {
      project.write(file, result.text, LOOKUP_DROPPED);
    } else if (result.kind === 'alreadySimtest') {
      project.unchanged(file, 'already on simtest.Environment');
    }
  }
}
