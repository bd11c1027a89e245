import type { DebugProtocol } from '@vscode/debugprotocol';
import type { CallSite } from '../../runtime/index.ts';

// The stack of a goroutine stopped in the client call whose write changed a watched field, as
// Delve shows it: the frames where controllerlab holds it (its wait, the wrapped client) come
// first; they are the debugger's doing, not the controller's, so they go. Library frames between
// the client call and the controller's line (controllerutil.CreateOrUpdate) stay, de-emphasised,
// so the editor selects the controller's own line, the call's.

/** Delve names functions by package name (`controllerlab.(*labClient).Update`), sometimes by path. */
const HOLD_PREFIXES = ['runtime.', 'controllerlab.', 'github.com/controller-lab/controller-lab/go/controllerlab.'];
/** Dependencies' sources live in the module cache or a vendor directory. */
const LIBRARY_PATH = /[\\/](pkg[\\/]mod|vendor)[\\/]/;

/** How many of the top frames are the hold's (dropped). */
export function holdFrameCount(frames: readonly DebugProtocol.StackFrame[]): number {
  const i = frames.findIndex((f) => !HOLD_PREFIXES.some((p) => f.name.startsWith(p)));
  return i < 0 ? 0 : i;
}

/**
 * The writer's frames without the hold's; those above the controller's call (`caller`, where the
 * write says it was made, else the first frame outside dependencies) are de-emphasised.
 */
export function writerFrames(frames: readonly DebugProtocol.StackFrame[], caller?: CallSite): DebugProtocol.StackFrame[] {
  const shown = frames.slice(holdFrameCount(frames));
  const firstOwn = firstOwnFrame(shown, caller);
  return shown.map((f, i) => (i < firstOwn ? { ...f, presentationHint: 'subtle', ...(f.source ? { source: { ...f.source, presentationHint: 'deemphasize' } } : {}) } : f));
}

/** Where in Delve's whole stack (the hold's frames included) the controller's frame that made the call is; -1: none. */
export function ownFrameIndex(frames: readonly DebugProtocol.StackFrame[], caller?: CallSite): number {
  const dropped = holdFrameCount(frames);
  const i = firstOwnFrame(frames.slice(dropped), caller);
  return i < 0 ? -1 : dropped + i;
}

function firstOwnFrame(shown: readonly DebugProtocol.StackFrame[], caller?: CallSite): number {
  const atCall = caller ? shown.findIndex((f) => f.source?.path === caller.file && f.line === caller.line) : -1;
  return atCall >= 0 ? atCall : shown.findIndex((f) => !LIBRARY_PATH.test(f.source?.path ?? ''));
}
