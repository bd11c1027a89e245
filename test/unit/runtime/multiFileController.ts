import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A controller split over several TypeScript files the way users write them: an extensionless
// import, a `.js` import of a `.ts` file, `import type` and an inline `type` import. Written to a
// temp dir outside the repo, so nothing of ours (node_modules, tsconfig) helps it load.

/** The line of reconcile.ts whose `throw` a stack trace must point at. */
export const THROW_LINE = 11;

export const FILES: Record<string, string> = {
  'controller.ts': `import { defineController } from 'controller-lab';
import { reconcileConfigMap } from './reconcile';

export default defineController({
  name: 'multi-file',
  for: { apiVersion: 'v1', kind: 'ConfigMap' },
  reconcile: (req, ctx) => reconcileConfigMap(req, ctx),
});
`,
  'reconcile.ts': `import type { ReconcileContext, ReconcileRequest } from 'controller-lab';
import { type ConfigMap, SUMMARY_SUFFIX } from './types';
import { summaryLabels } from './util.js';

export async function reconcileConfigMap(req: ReconcileRequest, ctx: ReconcileContext): Promise<void> {
  if (req.name.endsWith(SUMMARY_SUFFIX)) return;
  const cm = ctx.get<ConfigMap>('ConfigMap', req.namespace, req.name);
  if (!cm) return;
  const keys: string[] = Object.keys(cm.data ?? {}).sort();
  if (req.name === 'boom') {
    const reason: string = \`cannot summarize \${req.name as string}\`; throw new Error(reason);
  }
  await ctx.client.create<ConfigMap>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: req.name + SUMMARY_SUFFIX, namespace: req.namespace, labels: summaryLabels(cm) },
    data: { keys: keys.join(',') },
  });
}
`,
  'types.ts': `import type { KubeObject } from 'controller-lab';

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export const SUMMARY_SUFFIX = '-summary';
`,
  'util.ts': `import type { ConfigMap } from './types.ts';

export function summaryLabels(cm: ConfigMap): Record<string, string> {
  return { 'summary-of': cm.metadata.name as string };
}
`,
  'scenario.yaml': `objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: web, namespace: default }
    data: { greeting: hello, color: blue }
  - apiVersion: v1
    kind: ConfigMap
    metadata: { name: boom, namespace: default }
    data: { x: "1" }
`,
};

/** Writes the controller (with `overrides` replacing or adding files) into a new temp dir. */
export function writeController(overrides: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cl-multi-'));
  for (const [name, text] of Object.entries({ ...FILES, ...overrides })) writeFileSync(join(dir, name), text);
  return dir;
}
