// dlv, which the Go program runs under for line breakpoints, writes to the same stdout and stderr
// as the program (where it listens, its warnings about the listener), and its DAP session greets
// the console (`Type 'dlv help' …`, meant for a console where dlv commands can be typed: not this
// one) and says goodbye. They are Delve's, not the program's output, and shown among it they read
// as the controller's lines. What Delve says about a stop or a logpoint stays.

const DELVE_LINES = [
  /^API server listening at: \S+$/,
  /^Type 'dlv help' for list of commands\.$/,
  /^Detaching( and terminating target process| without terminating target process)?$/,
  // Said when it listens beyond loopback (it does not here, but a wrapper's dlv may).
  /^\S+ warning layer=rpc Listening for remote connections /,
];

/** `text` (whole lines, or a line's pieces) without Delve's own lines; the program's stay as they are. */
export function withoutDelveLines(text: string): string {
  return text.replace(/[^\n]*\n|[^\n]+$/g, (line) => (DELVE_LINES.some((re) => re.test(line.trimEnd())) ? '' : line));
}
