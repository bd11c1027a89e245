// `npm run package`: a production build, then `vsce package` into controller-lab-<version>.vsix, then
// a check that the archive holds only what users need (a source file, a test, a source map or
// node_modules inside fails the build) and the Go module users' projects build against.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const vsix = `controller-lab-${version}.vsix`;
const node = process.execPath;

execFileSync(node, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
execFileSync(node, ['node_modules/@vscode/vsce/vsce', 'package', '--no-dependencies', '--out', vsix], { stdio: 'inherit' });

const listing = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
const files = listing.filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
// The Go module's sources ride along (`controller-lab init go` copies them into a project, with
// minimum.mod and minimum.sum as the copy's go.mod and go.sum), not its tests.
const allowed = /^(dist\/|media\/|types\/controller-lab\.d\.ts$|package\.json$|readme\.md$|changelog\.md$|license(\.txt)?$|go\/(go\.mod|go\.sum|minimum\.mod|minimum\.sum|controllerlab\/[^/]+\.go|simtest\/[^/]+\.go)$)/i;
const forbidden = files.filter((f) => !allowed.test(f) || f.endsWith('.map') || f.endsWith('_test.go') || f.includes('node_modules/'));
const goFiles = files.filter((f) => f.startsWith('go/'));
if (!goFiles.includes('go/go.mod') || !goFiles.includes('go/minimum.mod') || !goFiles.includes('go/minimum.sum') || !goFiles.some((f) => f.startsWith('go/controllerlab/')) || !goFiles.some((f) => f.startsWith('go/simtest/'))) {
  console.error(`${vsix} lacks the Go module (go/go.mod, go/minimum.mod and .sum, go/controllerlab, go/simtest): found ${goFiles.join(', ') || 'nothing under go/'}`);
  process.exit(1);
}
if (forbidden.length > 0) {
  console.error(`${vsix} contains files users do not need:\n  ${forbidden.join('\n  ')}`);
  process.exit(1);
}
console.log(`${vsix}: ${files.length} files (${files.filter((f) => f.startsWith('dist/')).length} in dist/)`);
