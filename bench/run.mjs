// Runs every benchmark (bench/*.bench.ts) in turn, each in its own Node process, passing the
// arguments through (e.g. `npm run bench -- --quick`). Exits non-zero if any benchmark failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const benches = readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===\n`);
  const r = spawnSync(process.execPath, [path.join(dir, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`${file} failed (${r.status ?? r.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
