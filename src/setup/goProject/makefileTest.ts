import type { Project } from './project.ts';

// kubebuilder's `make test` first downloads etcd and kube-apiserver (setup-envtest) and hands their
// folder to the tests in KUBEBUILDER_ASSETS. On simtest neither is needed: the target loses that
// prerequisite and that prefix, and its help says why. A target of any other shape is left alone.
//
//   test: manifests generate fmt vet setup-envtest ## Run tests.
//   	KUBEBUILDER_ASSETS="$(shell "$(ENVTEST)" use $(ENVTEST_K8S_VERSION) --bin-dir "$(LOCALBIN)" -p path)" go test $$(go list ./... | grep -v /e2e) -coverprofile cover.out

export const TEST_HELP = "## Run tests (on Controller Lab's simulated cluster: no setup-envtest).";

// A suite kubebuilder scaffolds later (`create webhook`, a new group's `create api`) starts envtest
// again, whose binaries this target no longer fetches: without a word it fails in envtest's terms
// (`fork/exec /usr/local/kubebuilder/bin/etcd: no such file or directory`). The target's first line
// names each such suite and the command that moves it to simtest; a KUBEBUILDER_ASSETS given to make
// (envtest's binaries, fetched by hand) lets it run as it is.
const GUARD_ADVICE = "still starts envtest, whose etcd and kube-apiserver make test no longer downloads: run 'controller-lab init go' to move it to simtest (or set KUBEBUILDER_ASSETS)";
export const ENVTEST_GUARD = `\t@if [ -z "$$KUBEBUILDER_ASSETS" ]; then grep -rl --include='*_test.go' --exclude-dir=controller-lab --exclude-dir=vendor --exclude-dir=bin 'envtest\\.Environment{' . | sed "s|$$|: ${GUARD_ADVICE}|" | grep . >&2 && exit 1 || true; fi`;
const isGuard = (line: string) => line.includes(GUARD_ADVICE);
const GUARD_WHAT = 'test names any suite still on envtest and the command that moves it to simtest';

export type MakefileResult =
  /** `what`: the change, as `init go` reports it. */
  | { kind: 'changed'; text: string; what: string }
  | { kind: 'alreadySimulated' }
  | { kind: 'noTestTarget' }
  /** `advice`: what to change by hand. */
  | { kind: 'otherShape'; advice: string };

const RULE = /^test:([^#\n]*)(##[^\n]*)?$/m;
/** A recipe line that reaches for envtest's binaries. */
const USES_ENVTEST = /ENVTEST|KUBEBUILDER_ASSETS|setup-envtest/;
const ASSETS_PREFIX = 'KUBEBUILDER_ASSETS=';

/** The end of a `KUBEBUILDER_ASSETS="…"` value at `start` (its opening quote), over nested `$(…)` and quotes; -1 if it does not end on the line. */
function quotedMakeValueEnd(line: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '"' && depth === 0) return i + 1;
  }
  return -1;
}

/** The recipe line without its `KUBEBUILDER_ASSETS="…" ` prefix, or undefined when it has another shape. */
function withoutAssets(line: string): string | undefined {
  const body = line.replace(/^\t[@-]*/, '');
  const lead = line.slice(0, line.length - body.length);
  if (!body.startsWith(ASSETS_PREFIX)) return undefined;
  const valueStart = ASSETS_PREFIX.length;
  const end = body[valueStart] === '"' ? quotedMakeValueEnd(body, valueStart) : body.indexOf(' ', valueStart);
  if (end < 0) return undefined;
  const rest = body.slice(end).trimStart();
  return USES_ENVTEST.test(rest) ? undefined : lead + rest;
}

export function makeTestSimulated(text: string): MakefileResult {
  const rule = RULE.exec(text);
  if (!rule) return { kind: 'noTestTarget' };
  const prerequisites = (rule[1] ?? '').trim().split(/\s+/).filter(Boolean);
  const help = rule[2];
  const ruleEnd = rule.index + rule[0].length + 1;
  // The recipe: the tab-indented lines that follow (a backslash continues one).
  const recipeLines: string[] = [];
  let at = ruleEnd;
  while (at < text.length && (text[at] === '\t' || recipeLines.at(-1)?.endsWith('\\'))) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    recipeLines.push(text.slice(at, end));
    at = end + 1;
  }
  const needsEnvtest = prerequisites.includes('setup-envtest') || recipeLines.some((l) => !isGuard(l) && USES_ENVTEST.test(l));
  if (!needsEnvtest) {
    // Made simulated by an earlier Controller Lab, before the target named envtest's suites.
    if (help?.trim() !== TEST_HELP || recipeLines.some(isGuard)) return { kind: 'alreadySimulated' };
    return { kind: 'changed', text: `${text.slice(0, ruleEnd)}${ENVTEST_GUARD}\n${text.slice(ruleEnd)}`, what: GUARD_WHAT };
  }
  const recipe = [ENVTEST_GUARD, ...recipeLines.map((l) => (USES_ENVTEST.test(l) ? withoutAssets(l) : l))];
  if (recipe.some((l) => l === undefined) || recipeLines.some((l) => l.endsWith('\\'))) {
    return { kind: 'otherShape', advice: 'its test target has a shape this edit does not know: remove the setup-envtest prerequisite and KUBEBUILDER_ASSETS from it by hand (simtest needs neither)' };
  }
  const kept = prerequisites.filter((p) => p !== 'setup-envtest');
  const newRule = `test:${kept.length ? ` ${kept.join(' ')}` : ''}${help === undefined ? '' : ` ${TEST_HELP}`}`;
  const newText = `${text.slice(0, rule.index)}${newRule}\n${recipe.map((l) => `${l}\n`).join('')}${text.slice(at)}`;
  return { kind: 'changed', text: newText, what: 'test runs without setup-envtest (no KUBEBUILDER_ASSETS) and names any suite still on envtest' };
}

export function simulateMakeTest(project: Project): boolean {
  const text = project.read('Makefile');
  if (text === undefined) return false;
  const result = makeTestSimulated(text);
  if (result.kind === 'changed') project.write('Makefile', result.text, result.what);
  else if (result.kind === 'alreadySimulated') project.unchanged('Makefile', 'test already runs without setup-envtest');
  else if (result.kind === 'otherShape') project.manual('Makefile', result.advice);
  return result.kind !== 'noTestTarget';
}
