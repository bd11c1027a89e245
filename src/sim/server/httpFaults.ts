// HTTP-level faults (429/500 answers, added latency). Their settings live in the cluster's
// FaultControls, set as every fault is (the fault table's http-faults); we cache them here because
// they are read on every request and change rarely.
import type { FaultControls, HttpFaultSettings } from '../faults/faultControls.ts';
import { failureStatus } from './status.ts';
import type { Status } from '../../shared/k8s.ts';

export interface InjectedFailure {
  status: Status;
  headers?: Record<string, string>;
}

export class HttpFaults {
  private settings: HttpFaultSettings;
  private readonly unsubscribe: () => void;
  private readonly random: () => number;

  constructor(faults: FaultControls, random: () => number = Math.random) {
    this.random = random;
    this.settings = faults.state().http;
    this.unsubscribe = faults.onDidChange(() => {
      this.settings = faults.state().http;
    });
  }

  dispose(): void {
    this.unsubscribe();
  }

  /** ms to wait before serving this path (0: none). */
  latencyFor(path: string): number {
    const s = this.settings;
    return s.latencyMs > 0 && (s.pathFilter === '' || path.includes(s.pathFilter)) ? s.latencyMs : 0;
  }

  /** The failure to answer instead of serving, when the dice say so. */
  failureFor(path: string): InjectedFailure | undefined {
    const s = this.settings;
    if (s.errorRate <= 0 || (s.pathFilter !== '' && !path.includes(s.pathFilter))) return undefined;
    if (this.random() >= s.errorRate) return undefined;
    if (s.errorCode === 429) {
      const retry = Math.max(1, Math.round(s.retryAfterSeconds));
      return {
        status: failureStatus(429, 'the server has received too many requests and has asked us to try again later', 'TooManyRequests', { retryAfterSeconds: retry }),
        headers: { 'Retry-After': String(retry) },
      };
    }
    return { status: failureStatus(500, 'Internal error occurred: injected by controller-lab fault', 'InternalError') };
  }
}
