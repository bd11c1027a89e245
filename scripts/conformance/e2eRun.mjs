// Runs the e2e binary as upstream's conformance runs do it — skeleton provider, no nodes — with a
// focus that selects exactly the spec set, and reads ginkgo's JSON report back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { binary } from './paths.mjs';
import { start } from './processes.mjs';
import { focusRegexp } from './specs.mjs';

/** Runs the specs against a kubeconfig; resolves with the binary's exit code and the report path. */
export function runE2E({ kubeconfig, specs, dir, extraArgs = [], onProgress = () => {} }) {
  const report = join(dir, 'report.json');
  const log = join(dir, 'e2e.log');
  const args = [
    '--provider=skeleton',
    '--num-nodes=0',
    `--kubeconfig=${kubeconfig}`,
    `--ginkgo.focus=${focusRegexp(specs)}`,
    `--ginkgo.json-report=${report}`,
    `--ginkgo.junit-report=${join(dir, 'junit.xml')}`,
    '--ginkgo.no-color',
    // The same order every run, so two runs differ only in what the target answers.
    '--ginkgo.seed=1',
    // ginkgo's default suite timeout is one hour; a run against a server that makes specs wait
    // out their own timeouts takes longer.
    '--ginkgo.timeout=6h',
    '--disable-log-dump',
    // The suite's set-up waits for kube-system's Pods (and lists its ReplicationControllers and
    // ReplicaSets) before any spec. A nodeless control plane runs none, and the wait is no spec's
    // business: -1 skips it, on every target alike.
    '--minStartupPods=-1',
    ...extraArgs,
  ];
  const child = start(binary('e2e.test'), args, { log, cwd: dir });
  // Ginkgo's default reporter prints a bullet as each spec ends ("•" passed, "• [FAILED]" …).
  const progress = () => {
    if (!existsSync(log)) return;
    const text = readFileSync(log, 'utf8');
    const ended = (text.match(/•/g) ?? []).length;
    const failed = (text.match(/• \[(FAILED|PANICKED|TIMEDOUT|INTERRUPTED)\]/g) ?? []).length;
    onProgress({ ended, failed });
  };
  const timer = setInterval(progress, 60_000);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ code, report, log });
    });
  });
}

/** The It specs of a ginkgo JSON report: name, state, seconds, and the failure's first line and place. */
export function readReport(path) {
  const suites = JSON.parse(readFileSync(path, 'utf8'));
  return suites.flatMap((suite) =>
    (suite.SpecReports ?? [])
      .filter((r) => r.LeafNodeType === 'It')
      .map((r) => ({
        name: [...(r.ContainerHierarchyTexts ?? []), r.LeafNodeText].join(' '),
        state: r.State,
        seconds: Number(((r.RunTime ?? 0) / 1e9).toFixed(1)),
        failure: r.Failure ? firstLine(r.Failure.Message) : undefined,
        where: r.Failure?.Location ? `${shortFile(r.Failure.Location.FileName)}:${r.Failure.Location.LineNumber}` : undefined,
      })),
  );
}

/** Suite-level failures (BeforeSuite and the like), which fail every spec at once. */
export function suiteFailures(path) {
  const suites = JSON.parse(readFileSync(path, 'utf8'));
  return suites.flatMap((s) => (s.SpecReports ?? []).filter((r) => r.LeafNodeType !== 'It' && r.State !== 'passed' && r.Failure).map((r) => `${r.LeafNodeType}: ${firstLine(r.Failure.Message)}`));
}

const firstLine = (m = '') => m.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
const shortFile = (f = '') => f.replace(/^.*\/k8s\.io\/kubernetes@[^/]+\//, '');
