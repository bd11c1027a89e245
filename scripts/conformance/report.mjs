// What a run leaves behind: <name>.json (every spec's result) and <name>.md (a short summary),
// and what it prints: a line per spec, the failures' first lines, the count.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT } from './paths.mjs';

/** Puts the report's specs in the order of the spec set, a spec the report lacks as not run. */
export function results(specNames, reported) {
  const byName = new Map(reported.map((r) => [r.name, r]));
  return specNames.map((name) => byName.get(name) ?? { name, state: 'not run', seconds: 0 });
}

export function writeResults(name, meta, specs) {
  const passed = specs.filter((s) => s.state === 'passed').length;
  const summary = { ...meta, passed, total: specs.length, specs };
  writeFileSync(join(OUTPUT, `${name}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  const failing = specs.filter((s) => s.state !== 'passed');
  const md = [
    `# Conformance: ${name}`,
    '',
    `${passed} of ${specs.length} specs passed against ${meta.target} on ${meta.date} (Kubernetes ${meta.kubernetes} e2e, \`${meta.command}\`, ${meta.minutes} min).`,
    '',
    ...(failing.length
      ? ['| spec | state | first failure line |', '|---|---|---|', ...failing.map((s) => `| ${cell(s.name)} | ${s.state} | ${cell(s.failure ?? '')} |`)]
      : ['Every spec passed.']),
    '',
  ].join('\n');
  writeFileSync(join(OUTPUT, `${name}.md`), md);
  return { passed, total: specs.length };
}

export function printResults(specs) {
  if (specs.every((s) => s.state === 'not run')) {
    console.log('no spec ran');
    return;
  }
  for (const s of specs) console.log(`${s.state === 'passed' ? 'PASS' : 'FAIL'}  ${s.name}  (${s.state === 'passed' ? `${s.seconds} s` : s.state})`);
  const failing = specs.filter((s) => s.state !== 'passed');
  if (failing.length) {
    console.log('\nfirst failure line of each failing spec:');
    for (const s of failing) console.log(`- ${s.name}\n    ${s.failure ?? s.state}${s.where ? `  (${s.where})` : ''}`);
  }
}

const cell = (t) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 300);
