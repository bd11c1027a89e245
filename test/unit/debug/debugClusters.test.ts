import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startDebugCluster } from '../../../src/debug/debugClusters.ts';
import type { ClusterRequest } from '../../../src/debug/debugCluster.ts';
import { PausableClock } from '../../../src/shared/clock.ts';

// The clusters a debug launch runs on: `"cluster": "sim"` (one of its own), or a kubeconfig's.

const request = (cluster: ClusterRequest['cluster'], printed: string[] = []): ClusterRequest => ({ cluster, scenarioClock: new PausableClock(), print: (t) => printed.push(t) });

describe('debug clusters', () => {
  it('"sim" starts a simulated cluster of the session\'s own, says where, and stops it', async () => {
    const printed: string[] = [];
    const cluster = await startDebugCluster(request('sim', printed));
    try {
      assert.ok(existsSync(cluster.kubeconfig), 'a kubeconfig the controller process can read');
      assert.match(printed.join(''), /^Simulated cluster at https:\/\/127\.0\.0\.1:\d+ \(kubeconfig /);
      assert.equal(typeof cluster.startScenario, 'function');
    } finally {
      await cluster.stop();
    }
  });

  it('a kubeconfig and context pass through untouched; a choice it cannot serve is a clear error', async () => {
    const real = await startDebugCluster(request({ kubeconfig: '/home/me/.kube/config', context: 'kind-dev' }));
    assert.deepEqual({ kubeconfig: real.kubeconfig, context: real.context, scenario: real.startScenario }, { kubeconfig: '/home/me/.kube/config', context: 'kind-dev', scenario: undefined });
    await real.stop();
    await assert.rejects(startDebugCluster(request('view' as unknown as ClusterRequest['cluster'])), /"cluster": "view" is not available here: use "sim" or \{ "kubeconfig", "context" \}/);
  });
});
