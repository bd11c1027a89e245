// `npm run package`: a production build, then `vsce package` into controller-lab-<version>.vsix, then
// a check that the archive holds only what users need (a source file, a test, a source map or
// node_modules inside fails the build; go/ holds the Go module's sources, go.mod and go.sum only).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const vsix = `controller-lab-${version}.vsix`;
const node = process.execPath;

execFileSync(node, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
execFileSync(node, ['node_modules/@vscode/vsce/vsce', 'package', '--no-dependencies', '--out', vsix], { stdio: 'inherit' });

const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
const files = listing.filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
// go/: the Go module `controller-lab init go` copies into a project (sources, go.mod, go.sum).
const allowed = /^(dist\/|media\/|go\/|types\/controller-lab\.d\.ts$|package\.json$|readme\.md$|changelog\.md$|license(\.txt)?$)/i;
const goModuleOnly = (f) => !f.startsWith('go/') || (/^go\/(go\.mod|go\.sum|[\w/]+\.go)$/.test(f) && !f.endsWith('_test.go') && !f.startsWith('go/examples/'));
const forbidden = files.filter((f) => !allowed.test(f) || !goModuleOnly(f) || f.endsWith('.map') || f.includes('node_modules/'));
if (forbidden.length > 0) {
  console.error(`${vsix} contains files users do not need:\n  ${forbidden.join('\n  ')}`);
  process.exit(1);
}
console.log(`${vsix}: ${files.length} files (${files.filter((f) => f.startsWith('dist/')).length} in dist/)`);
