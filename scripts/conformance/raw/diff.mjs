// node scripts/conformance/raw/diff.mjs
// Sends the same raw HTTP requests (probes.json, then controllerProbes.json) to kube-apiserver v1.28.4 alone (etcd, no
// controller manager) and to `controller-lab sim --api-server-only`, compares status, reason,
// message and body shape, and writes test-output/conformance/raw-diff.{json,md}.
// Build the binaries first: node scripts/conformance/build.mjs.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTPUT } from '../paths.mjs';
import { startRealCluster } from '../realCluster.mjs';
import { startSim } from '../simCluster.mjs';
import { stopAll, waitFor } from '../processes.mjs';
import { client } from './http.mjs';
import { compare, differingValues, normalizeMessage, shapeDifference, valueAt } from './compare.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const probeFiles = ['probes.json', 'controllerProbes.json'].map((f) => JSON.parse(readFileSync(join(here, f), 'utf8')));
const probes = {
  setup: probeFiles.flatMap((f) => f.setup),
  ready: probeFiles.map((f) => f.ready),
  probes: probeFiles.flatMap((f) => f.probes),
};
const dir = join(OUTPUT, 'raw-diff');
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, 'real'), { recursive: true });
mkdirSync(join(dir, 'sim'), { recursive: true });
const say = (m) => console.log(`raw-diff: ${m}`);

/** `{rv}`, `{continue}` from the last setup answer; `{repeat:x:N}` is x N times (large bodies stay out of the file). */
function fill(value, last) {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value)
    .replaceAll('{rv}', last?.body?.metadata?.resourceVersion ?? '')
    .replaceAll('{continue}', encodeURIComponent(last?.body?.metadata?.continue ?? ''))
    .replace(/\{repeat:(.):(\d+)\}/g, (_, c, n) => c.repeat(Number(n)));
  return JSON.parse(text);
}

async function askAll(send) {
  for (const s of probes.setup) await send(s.method, s.path, { body: s.body });
  for (const path of probes.ready) await waitFor(`the probes' CRD served at ${path}`, async () => (await send('GET', path)).status === 200, { timeoutMs: 60_000 });
  const answers = {};
  for (const p of probes.probes) {
    const setup = [];
    for (const s of p.setup ?? []) setup.push(await send(s.method, fill(s.path, setup.at(-1)), { headers: s.headers, body: fill(s.body, setup.at(-1)) }));
    const last = setup.at(-1);
    // A setup request that fails makes the probe ask something else than it means to.
    for (const [i, a] of setup.entries()) if (a.status >= 300) console.log(`raw-diff: ${p.id}: setup request ${i + 1} answered ${a.status} ${a.body?.message ?? ''}`);
    const answer = await send(p.method, fill(p.path, last), { headers: p.headers, body: fill(p.body, last) });
    answers[p.id] = { answer, setup };
  }
  return answers;
}

try {
  const [real, sim] = await Promise.all([
    startRealCluster(join(dir, 'real'), say, { controllerManager: false }),
    startSim(join(dir, 'sim'), 'api-server-only', say),
  ]);
  say(`sending ${probes.probes.length} probes to each`);
  const [fromReal, fromSim] = await Promise.all([askAll(client(real)), askAll(client(sim))]);
  const rows = probes.probes.map((p) => {
    const r = fromReal[p.id];
    const s = fromSim[p.id];
    const compared = compare(r.answer, s.answer, r.setup, s.setup);
    const values = differingValues(p.values, r.answer, s.answer, r.setup, s.setup);
    const fields = { ...compared.fields, values: values.length === 0 };
    const alike = compared.alike && fields.values;
    const brief = (a, setup) => ({
      status: a.status,
      reason: a.body?.kind === 'Status' ? a.body.reason : undefined,
      message: a.body?.kind === 'Status' ? normalizeMessage(a.body.message, [a, ...setup]) : undefined,
    });
    return {
      id: p.id, category: p.category, request: `${p.method} ${p.path}`, alike, fields,
      real: brief(r.answer, r.setup), sim: brief(s.answer, s.setup),
      shapeDifference: fields.shape ? undefined : shapeDifference(r.answer.body, s.answer.body),
      valueDifferences: values.map((v) => ({ path: v, real: valueAt(r.answer.body, v), sim: valueAt(s.answer.body, v) })),
      realBody: r.answer.body, simBody: s.answer.body,
    };
  });
  const alike = rows.filter((r) => r.alike).length;
  const categories = [...new Set(rows.map((r) => r.category))].map((c) => {
    const inCat = rows.filter((r) => r.category === c);
    return { category: c, alike: inCat.filter((r) => r.alike).length, total: inCat.length };
  });
  const count = (f) => rows.filter((r) => r.fields[f]).length;
  const result = { date: new Date().toISOString().slice(0, 10), alike, total: rows.length, categories,
    fields: { status: count('status'), reason: count('reason'), message: count('message'), shape: count('shape'), values: count('values') }, rows };
  writeFileSync(join(OUTPUT, 'raw-diff.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(OUTPUT, 'raw-diff.md'), markdown(result));
  for (const r of rows.filter((x) => !x.alike)) {
    console.log(`DIFF ${r.id}: real ${r.real.status} ${r.real.reason ?? ''} ${r.real.message ?? ''} | sim ${r.sim.status} ${r.sim.reason ?? ''} ${r.sim.message ?? ''}${r.shapeDifference ? ` | shape: ${r.shapeDifference}` : ''}${r.valueDifferences.map((v) => ` | ${v.path}: real ${JSON.stringify(v.real)} sim ${JSON.stringify(v.sim)}`).join('')}`);
  }
  for (const c of categories) console.log(`${c.category}: ${c.alike} of ${c.total} alike`);
  console.log(`\n${alike} of ${rows.length} probes answered alike (status ${result.fields.status}, reason ${result.fields.reason}, message ${result.fields.message}, shape ${result.fields.shape}, values ${result.fields.values}); test-output/conformance/raw-diff.{json,md}`);
} finally {
  await stopAll();
  rmSync(join(dir, 'real', 'etcd'), { recursive: true, force: true });
}

function markdown(result) {
  const cell = (t) => String(t ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 200);
  const side = (a) => cell([a.status, a.reason, a.message].filter(Boolean).join(' '));
  return [
    `# Raw-request differential (${result.date})`,
    '',
    `${result.alike} of ${result.total} probes answered alike by kube-apiserver v1.28.4 and \`controller-lab sim --api-server-only\`.`,
    '',
    '| category | alike |', '|---|---|', ...result.categories.map((c) => `| ${c.category} | ${c.alike} of ${c.total} |`),
    '',
    '| probe | request | kube-apiserver | sim | body shape | values |', '|---|---|---|---|---|---|',
    ...result.rows.filter((r) => !r.alike).map((r) => `| ${r.id} | ${cell(r.request)} | ${side(r.real)} | ${side(r.sim)} | ${cell(r.shapeDifference ?? 'same')} | ${cell(r.valueDifferences.map((v) => `${v.path}: ${JSON.stringify(v.real)} vs ${JSON.stringify(v.sim)}`).join('; ') || 'same')} |`),
    '',
  ].join('\n');
}
