import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimBackend } from '../../../src/vscode/backends/simBackend.ts';

// The view's simulated cluster after a window reload: the extension host starts it again from the
// state it kept, with the objects the user made (and without the samples they deleted).

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

describe('the view’s simulated cluster across a reload', () => {
  it('keeps its objects and says it was restored; a new one says so too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-sim-state-'));
    try {
      const stateDir = join(dir, 'sim-state');
      const first = await createSimBackend({ sampleObjects: true, stateDir, kubeconfigOut: join(dir, 'kubeconfig') });
      assert.deepEqual(first.origin, { kind: 'new', stateDir });
      first.sim!.create(CONFIGMAPS, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mine' }, data: { v: '1' } });
      first.sim!.delete(CONFIGMAPS, 'default', 'app-config');
      await first.dispose();

      const second = await createSimBackend({ sampleObjects: true, stateDir, kubeconfigOut: join(dir, 'kubeconfig') });
      try {
        assert.equal(second.origin?.kind, 'restored');
        // Besides the namespace's CA ConfigMap, which the cluster's controller manager keeps there.
        const names = second.sim!.list(CONFIGMAPS, { namespace: 'default' }).items.map((o) => o.object.metadata.name).filter((n) => n !== 'kube-root-ca.crt').sort();
        assert.deepEqual(names, ['mine', 'web-nginx'], 'the user’s object is back and the deleted sample stays deleted');
        assert.ok(second.origin?.kind === 'restored' && second.origin.objects >= 2);
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without a state dir, starts in memory each time and says so', async () => {
    const backend = await createSimBackend({ sampleObjects: false });
    try {
      assert.deepEqual(backend.origin, { kind: 'new' });
    } finally {
      await backend.dispose();
    }
  });
});
