import { describe, it, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ControllerSession } from '../../../src/runtime/index.ts';
import { createSimCluster, type SimClusterApi } from '../../../src/sim/index.ts';
import type { KubeObject } from '../../../src/shared/k8s.ts';
import { ReconcileRuntime, type StopState } from '../../../src/debug/reconcileRuntime.ts';
import type { BreakpointSpec } from '../../../src/debug/breakpoints.ts';
import { InProcessHost } from './support/inProcessHost.ts';

// The reconcile debugger's engine, driven as the debug adapter drives it, over a real
// ControllerSession whose host runs in this process (support/inProcessHost.ts: the real controller
// loop, speaking the controller-host protocol) against an in-memory simulated cluster.

const CONTROLLER = fileURLToPath(new URL('./support/mirrorController.ts', import.meta.url));
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const SECRETS = { group: '', version: 'v1', resource: 'secrets' };
const WAIT_MS = 10_000;

const configMap = (name: string, data: Record<string, string>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name }, data }) as KubeObject;

interface Started {
  runtime: ReconcileRuntime;
  cluster: SimClusterApi;
  host: () => InProcessHost;
  stops: StopState[];
  /** The next stop after the ones already seen. */
  nextStop(): Promise<StopState>;
}

async function debug(t: TestContext, options: { objects?: KubeObject[]; stopOnEntry?: boolean; breakpoints?: BreakpointSpec[]; exceptions?: boolean } = {}): Promise<Started> {
  const cluster = createSimCluster();
  for (const o of options.objects ?? []) cluster.create(CONFIGMAPS, 'default', o);
  let host: InProcessHost | undefined;
  const runtime = new ReconcileRuntime({
    startSession: (o) => new ControllerSession({ ...o, bundler: 'none', typeScriptHost: () => (host = new InProcessHost(cluster)) }),
    startCluster: async () => ({ kubeconfig: '(in process)', stop: () => cluster.close() }),
  });
  const stops: StopState[] = [];
  const waiters: ((s: StopState) => void)[] = [];
  let seen = 0;
  runtime.on('stopped', (s) => {
    stops.push(s);
    waiters.shift()?.(s);
  });
  t.after(() => runtime.shutdown());
  runtime.setBreakpoints(options.breakpoints ?? []);
  runtime.setExceptionFilters(options.exceptions === false ? [] : ['reconcileErrors']);
  await runtime.launch({ controller: CONTROLLER, cluster: 'sim', stopOnEntry: options.stopOnEntry });
  const nextStop = () => {
    const i = seen++;
    if (stops[i]) return Promise.resolve(stops[i]);
    return new Promise<StopState>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no stop #${i + 1} within ${WAIT_MS} ms (stops so far: ${stops.map(describeStop).join(', ') || 'none'})`)), WAIT_MS);
      waiters.push((s) => {
        clearTimeout(timer);
        resolve(s);
      });
    });
  };
  return { runtime, cluster, host: () => host as InProcessHost, stops, nextStop };
}

const describeStop = (s: StopState) => `${s.reason} ${s.record.key} #${s.record.seq}${s.live ? '' : ' (recorded)'}`;

/** The Secrets the controller wrote: one per reconcile that ran, named after the ConfigMap and the RV it saw. */
function mirrored(cluster: SimClusterApi): string[] {
  return cluster.list(SECRETS, { namespace: 'default' }).items.map((s) => s.object.metadata.name ?? '').filter((n) => /-rv\d+$/.test(n)).sort();
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const rvOf = (cluster: SimClusterApi, name: string) => cluster.get(CONFIGMAPS, 'default', name).object.metadata.resourceVersion;

describe('reconcile runtime: stepping through reconciles', () => {
  it('stops before the first reconcile and, on next, before each following one; a stopped reconcile has not run', async (t) => {
    const { runtime, cluster, host, nextStop } = await debug(t, { objects: [configMap('a', {}), configMap('b', {}), configMap('c', {})], stopOnEntry: true });
    assert.equal(runtime.pid, undefined, 'no child process: the host runs in this process');
    const entry = await nextStop();
    assert.equal(describeStop(entry), `entry default/a #${entry.record.seq}`);
    assert.equal(runtime.current, entry);
    assert.deepEqual(mirrored(cluster), [], 'held at the gate: the reconcile has not run');
    assert.equal(entry.record.trigger[0]?.type, 'ADDED', 'its trigger: the initial list');
    assert.deepEqual(runtime.heldFor(runtime.threadOf(entry.record)).map((r) => r.key), ['default/a']);

    runtime.next();
    const second = await nextStop();
    assert.equal(describeStop(second), `step default/b #${entry.record.seq + 1}`);
    assert.deepEqual(mirrored(cluster), [`a-rv${rvOf(cluster, 'a')}`], 'a ran, b waits');
    const a = runtime.recordBySeq(entry.record.seq);
    assert.equal(a?.outcome?.kind, 'success');
    assert.ok(host().received.some((m) => m.type === 'proceed' && m.reconcileId === entry.record.reconcileId), 'the gate opened through the protocol');
    assert.deepEqual(a?.writes.map((w) => `${w.verb} ${w.kind} ${w.name}`), [`create Secret a-rv${rvOf(cluster, 'a')}`], 'its writes are recorded');

    runtime.next();
    assert.equal(describeStop(await nextStop()), `step default/c #${entry.record.seq + 2}`);
    runtime.continue();
    await until('c to run', () => mirrored(cluster).length === 3);
    cluster.update(CONFIGMAPS, 'default', 'b', { ...configMap('b', { v: '2' }) });
    await until('b to run again', () => mirrored(cluster).length === 4);
    assert.equal(runtime.current, undefined, 'after continue nothing stops without a breakpoint');
  });

  it('stops on a reconcile breakpoint for a named object only when its condition holds, from the hit count on', async (t) => {
    const breakpoint: BreakpointSpec = { name: 'ConfigMap default/b', condition: 'Number(obj.data.v) > 0', hitCondition: '2' };
    const { runtime, cluster, stops, nextStop } = await debug(t, { objects: [configMap('a', { v: '1' }), configMap('b', { v: '0' })], breakpoints: [breakpoint] });
    await until('the initial reconciles', () => mirrored(cluster).length === 2);
    assert.deepEqual(stops, [], 'b with v=0: the condition does not hold; a: another object');
    cluster.update(CONFIGMAPS, 'default', 'b', configMap('b', { v: '1' }));
    await until('b v=1 to run', () => mirrored(cluster).length === 3);
    cluster.update(CONFIGMAPS, 'default', 'a', configMap('a', { v: '7' }));
    await until('a v=7 to run', () => mirrored(cluster).length === 4);
    assert.deepEqual(stops, [], 'the first hit does not stop (hit condition 2)');
    cluster.update(CONFIGMAPS, 'default', 'b', configMap('b', { v: '2' }));
    const stop = await nextStop();
    assert.equal(stop.reason, 'breakpoint');
    assert.equal(stop.live, true);
    assert.equal(stop.record.key, 'default/b');
    assert.equal((stop.record.object as { data?: Record<string, string> }).data?.v, '2');
    assert.equal(stop.breakpointId, runtime.breakpoints.list()[0]?.id);
    assert.equal(mirrored(cluster).length, 4, 'stopped before it ran');
  });

  it('steps back and reverse-continues through recorded reconciles, reading the cache as it was, while the live one stays held', async (t) => {
    const { runtime, cluster, nextStop } = await debug(t, { objects: [configMap('a', { v: '1' })], breakpoints: [{ name: 'ConfigMap default/a' }] });
    const first = await nextStop();
    assert.equal(first.reason, 'breakpoint');
    runtime.continue();
    await until('a v=1 to run', () => mirrored(cluster).length === 1);
    cluster.update(CONFIGMAPS, 'default', 'a', configMap('a', { v: '2' }));
    const live = await nextStop();
    assert.equal(describeStop(live), `breakpoint default/a #${first.record.seq + 1}`);
    const dataAt = (s: StopState) => (runtime.cacheView(s.record)?.get('ConfigMap', 'default', 'a') as { data?: Record<string, string> } | undefined)?.data?.v;
    assert.equal(dataAt(live), '2');

    runtime.stepBack();
    const back = await nextStop();
    assert.equal(describeStop(back), `step default/a #${first.record.seq} (recorded)`);
    assert.equal(dataAt(back), '1', 'the cache as that reconcile saw it');
    assert.deepEqual(back.record.writes.map((w) => w.name), [`a-rv${first.record.object?.metadata.resourceVersion}`], 'what it wrote then');
    assert.equal(mirrored(cluster).length, 1, 'the live reconcile is still held');

    runtime.next();
    const forward = await nextStop();
    assert.equal(forward, live, 'next from the newest recorded reconcile returns to the live stop');
    assert.equal(mirrored(cluster).length, 1);

    runtime.reverseContinue();
    const reversed = await nextStop();
    assert.equal(describeStop(reversed), `breakpoint default/a #${first.record.seq} (recorded)`, 'back to the last earlier reconcile the breakpoint matches');
    assert.equal(dataAt(reversed), '1');

    runtime.continue();
    // Its write lands before its outcome is recorded (the reconcile returns after writing).
    await until('the held reconcile to finish', () => runtime.recordBySeq(live.record.seq)?.outcome !== undefined);
    assert.equal(mirrored(cluster).length, 2);
    assert.equal(runtime.recordBySeq(live.record.seq)?.outcome?.kind, 'success');
  });

  it('stops after a reconcile that threw, with its error; without the exception filter it runs on', async (t) => {
    const { runtime, cluster, nextStop, stops } = await debug(t, { objects: [configMap('bad', { fail: 'no disk' })] });
    const stop = await nextStop();
    assert.equal(stop.reason, 'exception');
    assert.equal(stop.live, false, 'a post-mortem stop on the finished reconcile');
    assert.equal(stop.description, 'cannot mirror bad: no disk');
    assert.equal(stop.record.outcome?.kind, 'error');
    assert.equal(stop.record.decision?.action, 'addRateLimited', 'retried with backoff');

    runtime.setExceptionFilters([]);
    runtime.continue();
    await until('two more failed retries', () => runtime.recordBySeq(stop.record.seq + 2)?.outcome);
    assert.equal(stops.length, 1, 'no stop once the filter is off');
    assert.deepEqual(mirrored(cluster), []);
  });
});
