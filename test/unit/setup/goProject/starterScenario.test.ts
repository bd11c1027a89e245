import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Project } from '../../../../src/setup/goProject/project.ts';
import { systemGo } from '../../../../src/setup/goProject/goTool.ts';
import { writeStarterScenario } from '../../../../src/setup/goProject/starterScenario.ts';

test('the starter scenario includes the config/ folders there are, and config/crd/bases before make manifests writes it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'starter-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const d of ['config/crd', 'config/samples']) mkdirSync(join(dir, d), { recursive: true });
  const project = new Project(dir, systemGo(), false);
  writeStarterScenario(project, { command: 'ENABLE_WEBHOOKS=false controller-lab run ./cmd --sim --scenario controller-lab/scenario.yaml --until-idle', note: 'why' });
  assert.deepEqual(project.changes, [{ file: 'controller-lab/scenario.yaml', status: 'changed', text: 'starter scenario (includes config/crd/bases, config/samples; config/crd/bases comes with make manifests)' }]);
  const text = readFileSync(join(dir, 'controller-lab/scenario.yaml'), 'utf8');
  assert.ok(text.includes('#   ENABLE_WEBHOOKS=false controller-lab run ./cmd --sim --scenario controller-lab/scenario.yaml --until-idle\n#   (why)\n'), text);
  assert.ok(text.endsWith('seed: 1\ninclude:\n  - ../config/crd/bases\n  - ../config/samples\n'), text);
  // Once written, it is the user's.
  writeStarterScenario(project, { command: 'x' });
  assert.deepEqual(project.changes.at(-1), { file: 'controller-lab/scenario.yaml', status: 'unchanged', text: 'there is one already' });
});
