// While a Go program builds: a line every 20 s, since a first build of controller-runtime (or the
// first one with Delve's flags) takes minutes, and silence that long reads as a hang. The CLI
// prints these lines; the debugger writes them to the Debug Console.

export const BUILD_PROGRESS_EVERY_MS = 20_000;

/** Starts saying `still building (N s; …)`; the function returned stops it, saying `built in N s` once built. */
export function sayBuildProgress(say: (line: string) => void): (built: boolean) => void {
  const started = performance.now();
  const seconds = () => Math.round((performance.now() - started) / 1000);
  const timer = setInterval(() => say(`  still building (${seconds()} s; a first build of controller-runtime takes minutes, later ones seconds)`), BUILD_PROGRESS_EVERY_MS);
  timer.unref();
  return (built) => {
    clearInterval(timer);
    if (built) say(`built in ${seconds()} s`);
  };
}
