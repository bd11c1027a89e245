// `npm start`: the product on a fresh machine. Builds and packages the extension, installs the .vsix
// into a real VS Code (code-server, cached under ~/.cache/controller-lab) with an extensions
// directory of its own, serves it on 127.0.0.1 with examples/ open, prints the URL and runs until
// Ctrl-C. `npm start -- --code` installs the .vsix into your own VS Code (`code` on the PATH) and
// opens examples/ there instead.
//
// PORT chooses the port (default 8080; a busy port falls back to a free one).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cacheDir, repoRoot } from './vscodeHost/install.mjs';
import { freePort, startCodeServer } from './vscodeHost/codeServer.mjs';

process.chdir(repoRoot);
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const vsix = join(repoRoot, `controller-lab-${version}.vsix`);
const workspace = existsSync(join(repoRoot, 'examples')) ? join(repoRoot, 'examples') : repoRoot;

execFileSync(process.execPath, ['scripts/package.mjs'], { stdio: 'inherit' });

if (process.argv.includes('--code')) {
  if (!onPath('code')) {
    console.error('--code: no `code` command on the PATH; run `npm start` without it to use code-server');
    process.exit(1);
  }
  execFileSync('code', ['--install-extension', vsix, '--force'], { stdio: 'inherit' });
  execFileSync('code', [workspace], { stdio: 'inherit' });
  console.log(`Controller Lab ${version} installed in VS Code; opened ${workspace}`);
  process.exit(0);
}

const wanted = Number(process.env.PORT ?? 8080);
const port = (await isFree(wanted)) ? wanted : await freePort();
if (port !== wanted) console.log(`port ${wanted} is busy; using ${port}`);

const server = await startCodeServer({
  workspace,
  port,
  vsix,
  // Dedicated to `npm start`: the user's own VS Code extensions never mix with this one.
  extensionsDir: join(cacheDir(), 'start-extensions'),
  log: (m) => console.log(m),
});

console.log(`\nController Lab ${version} is running in VS Code at:\n\n  ${server.url}/?folder=${encodeURIComponent(workspace)}\n`);
console.log('Open the Controller Lab icon in the activity bar. Press Ctrl-C to stop.');

const shutdown = () => {
  server.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
const code = await server.exited;
console.error(`code-server exited (${code}):\n${server.output()}`);
server.stop();
process.exit(1);

/** Whether something can listen on 127.0.0.1:port right now. */
function isFree(/** @type {number} */ p) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(p, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function onPath(/** @type {string} */ command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
