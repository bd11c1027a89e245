// `controller-lab sim`: the simulated cluster as a process kubectl and any controller can talk to.
//   controller-lab sim [--port N] [--kubeconfig-out FILE] [--scenario FILE] [--state-dir DIR] [--insecure-http]
//   controller-lab sim fault <action> [--name value …] [--kubeconfig FILE]   (drives a running sim)
//   controller-lab sim clients [-o json] | state [--kubeconfig FILE]
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { adminRequest, checkScenario, describeObjectsProgress, type ObjectsProgress, endpointFromKubeconfig, ADMIN_ACTIONS, printScenarioProgress, readScenarioFile, startSimServer, createSimCluster, parseDuration, MAX_SCENARIO_TIME_MS, workloadOptions, type WorkloadOptions } from '../sim/index.ts';
import { FAULTS, FaultArgumentError, faultArgsFromFlags, faultHelp, faultNamed, faultUsage } from '../sim/index.ts';
import { processHeap, refusedPastShare, scenarioAdmission } from '../sim/index.ts';
import type { ClientInfo } from '../sim/index.ts';
import { formatClientsTable } from './clientsTable.ts';
import { unwritableReason } from './outputPath.ts';

const USAGE = `usage:
  controller-lab sim [--port N] [--kubeconfig-out FILE] [--scenario FILE] [--state-dir DIR] [--insecure-http] [--server-version vX.Y.Z]
                     [--workloads [--nodes N] [--pod-start-delay 500ms] [--job-pod-duration 1s] [--pod-failure-rate 0.1]]
                     [--api-server-only]
                     [--max-requests-inflight 400] [--max-mutating-requests-inflight 200] [--request-timeout 1m]
                     [--accept-state-loss] [--stop-with-stdin]
  controller-lab sim fault <action> [--key value ...] [--kubeconfig FILE]
  controller-lab sim clients [-o json] [--kubeconfig FILE]
  controller-lab sim state [--kubeconfig FILE]

faults (the same names and arguments as the admin endpoint's and scenario steps'):
${FAULTS.map((f) => `  ${faultUsage(f)}\n      ${f.help}`).join('\n')}
  scenario FILE
      ${ADMIN_ACTIONS['scenario']?.summary ?? ''}

--workloads runs the Deployment, ReplicaSet, StatefulSet, DaemonSet and Job controllers, a scheduler
and fake Nodes (default 3) whose kubelets move Pods to Running and Ready, so workloads roll out.
Off by default, so your own controllers for these kinds are not raced.

--api-server-only runs kube-apiserver's part alone, as envtest does: no controller manager, so new
namespaces get no kube-root-ca.crt ConfigMap or default ServiceAccount, an owner's dependents are
not garbage collected and a deleted namespace stays Terminating (test suites written for envtest
count on that).

--state-dir DIR keeps the cluster across restarts. A damaged or incomplete DIR stops the start with
one line naming the file, the byte offset and what would be lost; --accept-state-loss starts anyway
with what can be read, saying each loss (a torn last journal line, a crash's partial write, is
dropped without a word).

--stop-with-stdin stops the sim when its standard input closes: a program that starts it (a test)
keeps the pipe open, so the sim never outlives it, however it ends.

A fault's arguments are flags: the kebab-case of its arguments' names (resourceVersion is
--resource-version); \`controller-lab sim fault NAME --help\` says what each one does.
The sim's admin endpoint is found through the kubeconfig it wrote (--kubeconfig, else $KUBECONFIG).

examples:
  controller-lab sim --port 6443 --state-dir .sim
  export KUBECONFIG=.sim/kubeconfig
  controller-lab sim fault compact                       # resumes from older resourceVersions get 410
  controller-lab sim fault drop-watches --resource deployments.apps
  controller-lab sim fault http-faults --error-rate 0.2 --error-code 429 --retry-after-seconds 2
  controller-lab sim fault conflict --resource deployments.apps --namespace shop --name web
  controller-lab sim fault scenario examples/scenarios/chaos.yaml
  controller-lab sim clients                             # who is watching what, up to which RV
  controller-lab sim clients -o json                     # the same as JSON
`;

/** `--kubeconfig FILE` (or `--kubeconfig=FILE`) taken out of an admin command's arguments. */
function takeKubeconfigFlag(tokens: readonly string[]): { kubeconfig: string | undefined; rest: string[] } {
  let kubeconfig: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '--kubeconfig') kubeconfig = tokens[++i];
    else if (t.startsWith('--kubeconfig=')) kubeconfig = t.slice('--kubeconfig='.length);
    else rest.push(t);
  }
  return { kubeconfig, rest };
}

async function readKubeconfigFor(flag: string | undefined): Promise<string> {
  const path = flag ?? process.env['KUBECONFIG']?.split(':')[0];
  if (!path) throw new Error('no kubeconfig: pass --kubeconfig FILE (the one `controller-lab sim` printed) or set KUBECONFIG');
  return readFile(path, 'utf8');
}

/** `sim fault compact --resource-version 12` → POST admin/compact {"resourceVersion":12}. */
async function runAdminCommand(all: string[]): Promise<number> {
  // `-o json` / `--output json` (as kubectl spells it): tables are for people, JSON for scripts.
  let output = 'table';
  const args: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    if (t === '-o' || t === '--output') output = all[++i] ?? '';
    else if (t.startsWith('-o=') || t.startsWith('--output=')) output = t.slice(t.indexOf('=') + 1);
    else args.push(t);
  }
  if (output !== 'table' && output !== 'json') {
    process.stderr.write(`unknown output format ${JSON.stringify(output)}: use -o json (or no -o for a table)\n`);
    return 2;
  }
  const [command, ...rest] = args;
  let action: string;
  let tokens = rest;
  if (command === 'fault') {
    if (!rest[0] || rest[0].startsWith('-')) {
      process.stderr.write(USAGE);
      return 2;
    }
    action = rest[0];
    tokens = rest.slice(1);
  } else {
    action = command!;
  }
  const spec = ADMIN_ACTIONS[action];
  if (!spec) {
    process.stderr.write(`unknown action ${JSON.stringify(action)}\n${USAGE}`);
    return 2;
  }
  const { kubeconfig: kubeconfigFlag, rest: actionTokens } = takeKubeconfigFlag(tokens);
  const fault = faultNamed(action);
  let payload: unknown;
  let scenarioFile: string | undefined;
  if (fault) {
    try {
      payload = faultArgsFromFlags(fault, actionTokens);
    } catch (err) {
      if (!(err instanceof FaultArgumentError)) throw err;
      process.stderr.write(`${err.message}\nusage: controller-lab sim fault ${faultUsage(fault)}\n`);
      return 2;
    }
  } else {
    const unexpected = actionTokens.filter((t, i) => !(action === 'scenario' && i === 0 && !t.startsWith('--')));
    if (unexpected.length) {
      process.stderr.write(`unexpected argument ${JSON.stringify(unexpected[0])}\n`);
      return 2;
    }
    scenarioFile = action === 'scenario' ? actionTokens[0] : undefined;
  }
  const endpoint = endpointFromKubeconfig(await readKubeconfigFor(kubeconfigFlag));
  if (action === 'scenario') {
    if (!scenarioFile) throw new Error('sim fault scenario FILE: the scenario file is missing');
    payload = await readScenarioFile(scenarioFile);
  }
  const answer = await adminRequest(endpoint, action, payload);
  for (const warning of (answer as { warnings?: string[] }).warnings ?? []) process.stderr.write(`warning: ${warning.replace(/^admin-request\.yaml/, scenarioFile ?? '')}\n`);
  if (action === 'clients' && output === 'table') {
    process.stdout.write(formatClientsTable((answer as { clients?: ClientInfo[] }).clients ?? [], Date.now()));
    return 0;
  }
  if (action === 'scenario' && output === 'table') {
    process.stdout.write(`Scenario ${scenarioFile} started in the running simulated cluster (its steps run there).\n`);
    return 0;
  }
  process.stdout.write(JSON.stringify(answer, null, 2) + '\n');
  return 0;
}

/** kube-apiserver's in-flight limit flags: a count, 0 for no limit. */
function inFlightFlag(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number (0: no limit), got ${value}`);
  return n;
}

/** kube-apiserver's --request-timeout: how long a request body may take to arrive. */
function requestTimeoutFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0 || ms > MAX_SCENARIO_TIME_MS) throw new Error(`--request-timeout must be a duration such as 30s or 1m (at most 24h), not ${value}`);
  return ms;
}

async function runServer(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '0' },
      'kubeconfig-out': { type: 'string' },
      scenario: { type: 'string' },
      'state-dir': { type: 'string' },
      'insecure-http': { type: 'boolean', default: false },
      'server-version': { type: 'string' },
      token: { type: 'string' },
      workloads: { type: 'boolean', default: false },
      'api-server-only': { type: 'boolean', default: false },
      nodes: { type: 'string' },
      'pod-start-delay': { type: 'string' },
      'job-pod-duration': { type: 'string' },
      'pod-failure-rate': { type: 'string' },
      'max-requests-inflight': { type: 'string' },
      'max-mutating-requests-inflight': { type: 'string' },
      'request-timeout': { type: 'string' },
      'accept-state-loss': { type: 'boolean', default: false },
      'stop-with-stdin': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}`);
  // Absolute, so the printed kubeconfig path works from any directory.
  const stateDir = values['state-dir'] ? resolve(values['state-dir']) : undefined;
  const scenarioText = values.scenario ? await readScenarioFile(values.scenario) : undefined;
  const kubeconfigProblem = values['kubeconfig-out'] === undefined ? undefined : unwritableReason(values['kubeconfig-out']);
  if (kubeconfigProblem) throw new Error(`--kubeconfig-out ${values['kubeconfig-out']}: cannot write it: ${kubeconfigProblem}`);
  const workloads = workloadFlags(values);
  const requestTimeoutMs = requestTimeoutFlag(values['request-timeout']);

  const acceptStateLoss = values['accept-state-loss'];
  const cluster = createSimCluster({
    ...(stateDir ? { stateDir, acceptStateLoss } : {}),
    storageCompaction: true,
    onHeapQuota: (problem) => process.stderr.write(`controller-lab sim: ${problem ?? 'the heap is back within its quota: writes are taken again'}\n`),
  });
  const scenarioOptions = values.scenario ? { fileName: values.scenario, baseDir: dirname(resolve(values.scenario)) } : {};
  // Every problem of the scenario before anything listens: a sim that served on without its
  // scenario would look as if it had loaded it.
  // A scenario of thousands of objects takes seconds to read and apply: said as it goes.
  const onObjectsProgress = (p: ObjectsProgress) => process.stdout.write(`Scenario ${values.scenario}: ${describeObjectsProgress(p)}\n`);
  let checked: ReturnType<typeof checkScenario> | undefined;
  if (scenarioText !== undefined) {
    try {
      checked = checkScenario(cluster, scenarioText, { ...scenarioOptions, onObjectsProgress });
    } catch (err) {
      await cluster.close();
      throw err;
    }
  }
  if (workloads) {
    const o = cluster.enableWorkloads(workloads);
    process.stdout.write(`Workloads: controllers, scheduler and ${o.nodes} fake Nodes (Pods start in ${o.podStartDelayMs} ms, ${o.podFailureRate * 100}% fail)\n`);
  }
  const server = await startSimServer(cluster, {
    port,
    insecureHttp: values['insecure-http'],
    controllerManager: !values['api-server-only'],
    collectGarbageWhenIdle: true,
    ...(values['kubeconfig-out'] ? { kubeconfigOut: resolve(values['kubeconfig-out']) } : {}),
    ...(stateDir ? { stateDir, acceptStateLoss } : {}),
    ...(values['server-version'] ? { serverVersion: values['server-version'] } : {}),
    ...(values.token ? { token: values.token } : {}),
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    maxRequestsInFlight: {
      ...(values['max-requests-inflight'] ? { readOnly: inFlightFlag('max-requests-inflight', values['max-requests-inflight']) } : {}),
      ...(values['max-mutating-requests-inflight'] ? { mutating: inFlightFlag('max-mutating-requests-inflight', values['max-mutating-requests-inflight']) } : {}),
    },
  });

  process.stdout.write(
    [
      `Simulated cluster serving on ${server.url}`,
      `Kubeconfig: ${server.kubeconfigPath}`,
      `  export KUBECONFIG=${server.kubeconfigPath}`,
      `Admin (faults, client insight): ${server.adminUrl}  — try: controller-lab sim fault --help`,
      stateDir ? `State: ${stateDir} (kept across restarts; a write is on disk before it is answered)` : 'State: in memory (use --state-dir DIR to keep it)',
      `Heap: limit ${megabytes(processHeap.limit)}; writes are refused past ${megabytes(processHeap.limit * refusedPastShare)} (etcd's "database space exceeded"; NODE_OPTIONS=--max-old-space-size=MB sets the limit)`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  if (scenarioText !== undefined) {
    let run: ReturnType<typeof cluster.loadScenario>;
    try {
      run = cluster.loadScenario(scenarioText, { ...scenarioOptions, admit: scenarioAdmission(cluster), checked, onObjectsProgress });
    } catch (err) {
      // An object the cluster refuses (admission, a quota): the scenario cannot run, so neither does the sim.
      await server.stop();
      await cluster.close();
      throw err;
    }
    printScenarioProgress(run, values.scenario!, (line) => process.stdout.write(`${line}\n`)).catch(() => undefined);
  }

  await new Promise<void>((resolve) => {
    const shutdown = () => resolve();
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
    if (values['stop-with-stdin']) {
      process.stdin.once('end', shutdown);
      process.stdin.once('error', shutdown);
      process.stdin.resume();
    }
  });
  process.stdout.write('Stopping…\n');
  await server.stop();
  await cluster.close();
  return 0;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** The workload simulation's options from the flags; any of them turns it on. */
function workloadFlags(values: { workloads?: boolean; nodes?: string; 'pod-start-delay'?: string; 'job-pod-duration'?: string; 'pod-failure-rate'?: string }): Partial<WorkloadOptions> | undefined {
  const given = values.nodes ?? values['pod-start-delay'] ?? values['job-pod-duration'] ?? values['pod-failure-rate'];
  if (!values.workloads && given === undefined) return undefined;
  const duration = (flag: 'pod-start-delay' | 'job-pod-duration'): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const ms = parseDuration(text);
    if (ms === undefined || ms > MAX_SCENARIO_TIME_MS) throw new Error(`--${flag} must be a duration such as 500ms or 2s (at most 24h), not ${text}`);
    return ms;
  };
  const options: Partial<WorkloadOptions> = {};
  if (values.nodes !== undefined) options.nodes = Number(values.nodes);
  const start = duration('pod-start-delay');
  if (start !== undefined) options.podStartDelayMs = start;
  const run = duration('job-pod-duration');
  if (run !== undefined) options.jobPodDurationMs = run;
  if (values['pod-failure-rate'] !== undefined) options.podFailureRate = Number(values['pod-failure-rate']);
  // Checked here so a bad flag ends the command before a server starts.
  workloadOptions(options);
  return options;
}

/** Entry point for `controller-lab sim …` (see main.ts); resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const first = args[0];
  try {
    if (first === 'fault' || first === 'clients' || first === 'state') {
      if (args.includes('--help') || args.includes('-h')) {
        const fault = first === 'fault' ? faultNamed(args[1] ?? '') : undefined;
        process.stdout.write(fault ? faultHelp(fault) : USAGE);
        return 0;
      }
      return await runAdminCommand(args);
    }
    return await runServer(args);
  } catch (err) {
    process.stderr.write(`controller-lab sim: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
