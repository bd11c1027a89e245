import type { DebugProtocol } from '@vscode/debugprotocol';
import type { CallSite } from '../../runtime/index.ts';
import { ownFrameIndex } from './writerFrames.ts';

// A step from a held write: the writing goroutine waits deep inside controllerlab and the client
// library, where Delve's own steps would walk through their code. Instead the step runs to where
// the controller's frame gets control back (a one-shot instruction breakpoint on the return
// address, for that goroutine only), then goes on as the step would from the call's line: Step
// Over takes Delve's `next` from there, Step Into its `stepIn`; Step Out runs to the return into
// the controller's function's caller and stops there.

export type WriteStep = 'next' | 'stepIn' | 'stepOut';

export interface ReturnTarget {
  /** Delve's instruction reference of the return address (`0x…`). */
  address: string;
  /** Delve's step to take once there; none: stop there. */
  then?: 'next' | 'stepIn';
}

/**
 * Where the step from a held write first runs to, from the writer's whole stack as Delve gives it
 * (a caller frame's instruction pointer is its return address); undefined when it is not known.
 */
export function returnTarget(frames: readonly DebugProtocol.StackFrame[], caller: CallSite | undefined, step: WriteStep): ReturnTarget | undefined {
  const own = ownFrameIndex(frames, caller);
  // The controller's frame must be below the call it made (the top frame has no return address).
  if (own < 1) return undefined;
  const frame = frames[step === 'stepOut' ? own + 1 : own];
  const address = frame?.instructionPointerReference;
  if (!address || !/^0x[0-9a-f]+$/i.test(address)) return undefined;
  return step === 'stepOut' ? { address } : { address, then: step };
}
