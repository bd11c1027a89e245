// While a Go program builds: a line every so often, since a first build of controller-runtime
// takes minutes (a build for Delve, with every package compiled again without optimisation, up to
// ten on a kubebuilder project), and minutes with no line read as a hang.

export const BUILD_PROGRESS_EVERY_MS = 20_000;

export interface BuildProgressOptions {
  /** Built with Delve's -gcflags=all=-N -l: its first build compiles every package again. */
  delve?: boolean;
  everyMs?: number;
}

const elapsed = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Starts the lines; the function returned stops them, saying how long the build took when it built. */
export function buildProgress(print: (line: string) => void, options: BuildProgressOptions = {}): (built: boolean) => void {
  const started = performance.now();
  const why = options.delve
    ? 'the first build for Delve compiles every package without optimisation: minutes, up to ten for a kubebuilder project; later ones seconds'
    : 'a first build of controller-runtime takes minutes, later ones seconds';
  const timer = setInterval(() => print(`  still building (${elapsed(performance.now() - started)}; ${why})`), options.everyMs ?? BUILD_PROGRESS_EVERY_MS);
  timer.unref();
  return (built) => {
    clearInterval(timer);
    if (built) print(`built in ${elapsed(performance.now() - started)}`);
  };
}
