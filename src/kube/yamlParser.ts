import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// The YAML library, loaded the first time a kubeconfig is not JSON. Loaded with the rest of
// `controller-lab watch`, its 112 KB were compiled on every start (3–9 ms of CPU) for a
// kubeconfig in JSON that never needed it. The CLI's build makes it a bundle of its own that this
// requires (scripts/cliBuild.mjs); other bundles keep it inside, initialised on first use; run
// from source, it is the package itself.

let yaml: typeof Yaml | undefined;

/** YAML text (one document) to a value, as the `yaml` package's `parse`. */
export function parseYaml(text: string): unknown {
  yaml ??= loadYaml();
  return yaml.parse(text);
}

function loadYaml(): typeof Yaml {
  // A bundle is CommonJS: esbuild sees this `require` and resolves it at build time. Run from
  // source (an ES module), there is no `require`.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously: the kubeconfig is read so
  if (typeof require === 'function') return require('yaml') as typeof Yaml;
  return createRequire(import.meta.url)('yaml') as typeof Yaml;
}
