import type * as Public from '../../types/simtest.d.ts';
import { parseManifest, readManifests } from './manifests.ts';
import { SimObjects } from './objects.ts';
import { ControllerRunError, runController } from './runController.ts';
import { SimProcess } from './simProcess.ts';

// `controller-lab/simtest`: a simulated cluster for a TypeScript or JavaScript controller's tests,
// as simtest is for Go's (and envtest before it). It starts `controller-lab sim` of this package,
// applies manifests, and runs a controller against it until idle. types/simtest.d.ts declares
// what users see; this implements those declarations.

export { ControllerRunError };
// The class users get is the one they are told of.
const _declared: typeof Public.ControllerRunError = ControllerRunError;
void _declared;

export async function startSim(options: Public.SimOptions = {}): Promise<Public.Sim> {
  const manifests = readManifests(options.manifests ?? []);
  const simProcess = await SimProcess.start({ args: options.workloads ? ['--workloads'] : [], startTimeoutMs: options.startTimeoutMs ?? 30_000 });
  const objects = new SimObjects(simProcess.kubeconfig);
  const stop = async () => {
    objects.close();
    await simProcess.stop();
  };
  try {
    if (manifests.length > 0) await objects.apply(manifests);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    kubeconfig: simProcess.kubeconfig,
    server: simProcess.server,
    apply: (input) => objects.apply(typeof input === 'string' ? parseManifest(input) : Array.isArray(input) ? input : [input]),
    get: (apiVersion, kind, name, namespace) => objects.get(apiVersion, kind, name, namespace),
    list: (apiVersion, kind, namespace) => objects.list(apiVersion, kind, namespace),
    delete: (apiVersion, kind, name, namespace) => objects.delete(apiVersion, kind, name, namespace),
    runController: (file, runOptions) => runController(simProcess.kubeconfig, file, runOptions),
    get log() {
      return simProcess.log;
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
