// A controller's logger writes to stderr by default (controller-runtime's zap, klog), info lines
// included: shown as errors, a kubebuilder program's start-up reads as one failure after another.
// Lines a logger marks as info or debug show as ordinary output; everything else stays stderr.

const INFO_LINES = [
  // zap's console encoder (kubebuilder's Development mode): time, level, logger, message.
  /^\S+\t(DEBUG|INFO)\t/,
  // zap's JSON encoder (controller-runtime's default).
  /^\{[^\n]*?"level":"(debug|info)"/,
  // klog: I = info.
  /^I\d{4} \d{2}:\d{2}:\d{2}\.\d+ /,
];

export interface OutputRun {
  category: 'stdout' | 'stderr';
  text: string;
}

/** A chunk of a controller's stderr as runs of whole lines, each with the category it shows in. */
export function stderrRuns(text: string): OutputRun[] {
  const runs: OutputRun[] = [];
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const category = INFO_LINES.some((re) => re.test(line)) ? 'stdout' : 'stderr';
    const last = runs.at(-1);
    if (last?.category === category) last.text += line;
    else runs.push({ category, text: line });
  }
  return runs;
}
