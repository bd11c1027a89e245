import type { RequestType } from '../../src/shared/protocol/timeline.ts';
import { isResponse, request } from '../../src/shared/protocol/timeline.ts';

// The one wrapper around acquireVsCodeApi (it may be called once per page), with request/response
// correlation: each request gets an id, its response settles the matching promise.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export class HostConnection {
  private readonly api: VsCodeApi;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void; method: string }>();

  constructor() {
    this.api = acquireVsCodeApi();
    window.addEventListener('message', (e: MessageEvent) => this.settle(e.data));
  }

  post(message: unknown): void {
    this.api.postMessage(message);
  }

  request<M extends string, P, R>(type: RequestType<M, P, R>, params: P): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method: type.method });
      this.api.postMessage(request(type, id, params));
    });
  }

  onMessage(handler: (message: unknown) => void): void {
    window.addEventListener('message', (e: MessageEvent) => handler(e.data));
  }

  getState<T>(): T | undefined {
    return this.api.getState() as T | undefined;
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  private settle(message: unknown): void {
    if (typeof message !== 'object' || message === null || (message as { kind?: unknown }).kind !== 'response') return;
    const id = (message as { id?: unknown }).id;
    const entry = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!entry || !isResponse(message, { kind: 'request', method: entry.method })) return;
    this.pending.delete(id as number);
    if (message.error !== undefined) entry.reject(new Error(message.error));
    else entry.resolve(message.result);
  }
}
