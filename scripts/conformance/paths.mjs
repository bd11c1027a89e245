// Where the conformance scripts keep what they build and what they write: Kubernetes' binaries in
// the user's cache (never in the checkout), results under test-output/.
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KUBERNETES_VERSION = 'v1.28.4';
/** The staging modules (k8s.io/api, k8s.io/client-go, …) are published as v0.<minor>.<patch>. */
export const STAGING_VERSION = KUBERNETES_VERSION.replace(/^v1\./, 'v0.');

export const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'controller-lab', `k8s-${KUBERNETES_VERSION}`);
export const MODULE_DIR = join(CACHE, 'module');
export const BIN = join(CACHE, 'bin');
export const binary = (/** @type {string} */ name) => join(BIN, name);

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OUTPUT = join(REPO, 'test-output', 'conformance');
export const SPECS_FILE = join(REPO, 'scripts', 'conformance', 'specs.txt');
/** The wider set: specs outside [Conformance] that controllers lean on (specs.mjs WIDER). */
export const WIDER_SPECS_FILE = join(REPO, 'scripts', 'conformance', 'specs-wider.txt');
