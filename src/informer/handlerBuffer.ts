import type { KubeObject } from '../shared/k8s.ts';
import type { DeepReadonly } from './readonly.ts';

// client-go processorListener: every handler gets its own unbounded buffer, so a handler that is
// slow (returns a promise) or throws never holds back or breaks the others. Notifications are kept
// in parallel ring arrays (no object per notification) and delivered in order, one at a time: the
// next call waits for a returned promise to settle. A handler that is idle is called at once.

/** What a handler may return: nothing, or a promise the next notification waits for. */
export type HandlerResult = void | Promise<void>;

/**
 * Callbacks for one consumer of an informer. Objects are the cached ones, shared with every other
 * handler: they are read-only, do not keep them mutable elsewhere.
 */
export interface ResourceEventHandler<T extends KubeObject = KubeObject> {
  /** `isInInitialList`: the object came with the informer's first list, not a later change. */
  onAdd?(obj: DeepReadonly<T>, isInInitialList: boolean): HandlerResult;
  /** On a resync (and on a relist that found the object unchanged) `oldObj === newObj`. */
  onUpdate?(oldObj: DeepReadonly<T>, newObj: DeepReadonly<T>): HandlerResult;
  /**
   * `obj` is the final state; when `finalStateUnknown` the object vanished while the informer was
   * not watching and `obj` is the last state the cache had (client-go's DeletedFinalStateUnknown).
   */
  onDelete?(obj: DeepReadonly<T>, finalStateUnknown: boolean): HandlerResult;
}

export const Notification = { add: 0, addInitial: 1, update: 2, delete: 3, deleteUnknown: 4 } as const;
export type NotificationCode = (typeof Notification)[keyof typeof Notification];

export interface HandlerBufferHooks {
  /** A handler threw or its promise rejected. */
  onError(handler: string, err: unknown): void;
  /** Called before each handler call (probes); `queued` is what is still waiting after this one. */
  onCall?(handler: string, code: NotificationCode, obj: DeepReadonly<KubeObject>, queued: number): void;
}

export class HandlerBuffer<T extends KubeObject = KubeObject> {
  readonly name: string;
  private readonly handler: ResourceEventHandler<T>;
  private readonly hooks: HandlerBufferHooks;
  private codes: NotificationCode[] = new Array(16);
  private objs: (DeepReadonly<T> | undefined)[] = new Array(16);
  private olds: (DeepReadonly<T> | undefined)[] = new Array(16);
  private head = 0;
  private count = 0;
  private busy = false;
  private removed = false;
  /** Notifications whose handler call finished (returned, or its promise settled). */
  delivered = 0;
  /** Notifications ever queued. */
  queuedTotal = 0;
  errors = 0;

  constructor(name: string, handler: ResourceEventHandler<T>, hooks: HandlerBufferHooks) {
    this.name = name;
    this.handler = handler;
    this.hooks = hooks;
  }

  /** Notifications waiting (including one in progress). */
  get depth(): number {
    return this.count + (this.busy ? 1 : 0);
  }

  /** Queues a notification without delivering it (the owner calls `pump`). */
  push(code: NotificationCode, obj: DeepReadonly<T>, old: DeepReadonly<T> | undefined): void {
    if (this.removed) return;
    if (this.count === this.codes.length) this.grow();
    const i = (this.head + this.count) & (this.codes.length - 1);
    this.codes[i] = code;
    this.objs[i] = obj;
    this.olds[i] = old;
    this.count++;
    this.queuedTotal++;
  }

  /** Delivers a notification now if the handler is idle with nothing waiting, else queues it behind the others. */
  deliver(code: NotificationCode, obj: DeepReadonly<T>, old: DeepReadonly<T> | undefined): void {
    if (this.count > 0 || this.busy || this.removed) {
      this.push(code, obj, old);
      this.pump();
      return;
    }
    this.queuedTotal++;
    this.invoke(code, obj, old);
  }

  /** Delivers what is buffered, synchronously, until empty or until a handler returns a promise. */
  pump(): void {
    while (this.count > 0 && !this.busy && !this.removed) {
      const mask = this.codes.length - 1;
      const i = this.head;
      const code = this.codes[i]!;
      const obj = this.objs[i]!;
      const old = this.olds[i];
      this.objs[i] = undefined;
      this.olds[i] = undefined;
      this.head = (i + 1) & mask;
      this.count--;
      this.invoke(code, obj, old);
    }
  }

  /** One handler call. `busy` while it runs (so a call it causes queues) and until a returned promise settles. */
  private invoke(code: NotificationCode, obj: DeepReadonly<T>, old: DeepReadonly<T> | undefined): void {
    this.hooks.onCall?.(this.name, code, obj as DeepReadonly<KubeObject>, this.count);
    this.busy = true;
    let result: HandlerResult;
    try {
      result = this.call(code, obj, old);
    } catch (err) {
      this.busy = false;
      this.fail(err);
      this.delivered++;
      return;
    }
    if (result !== undefined && typeof (result as { then?: unknown }).then === 'function') {
      (result as Promise<void>).then(
        () => this.settled(),
        (err: unknown) => {
          this.fail(err);
          this.settled();
        },
      );
      return;
    }
    this.busy = false;
    this.delivered++;
  }

  /** Drops everything buffered and delivers nothing more. */
  remove(): void {
    this.removed = true;
    this.count = 0;
    this.codes = [];
    this.objs = [];
    this.olds = [];
  }

  private settled(): void {
    this.busy = false;
    this.delivered++;
    this.pump();
  }

  private fail(err: unknown): void {
    this.errors++;
    this.hooks.onError(this.name, err);
  }

  private call(code: NotificationCode, obj: DeepReadonly<T>, old: DeepReadonly<T> | undefined): HandlerResult {
    const h = this.handler;
    switch (code) {
      case Notification.add:
        return h.onAdd?.(obj, false);
      case Notification.addInitial:
        return h.onAdd?.(obj, true);
      case Notification.update:
        return h.onUpdate?.(old!, obj);
      case Notification.delete:
        return h.onDelete?.(obj, false);
      case Notification.deleteUnknown:
        return h.onDelete?.(obj, true);
    }
  }

  private grow(): void {
    const size = this.codes.length;
    const codes: NotificationCode[] = new Array(size * 2);
    const objs: (DeepReadonly<T> | undefined)[] = new Array(size * 2);
    const olds: (DeepReadonly<T> | undefined)[] = new Array(size * 2);
    for (let k = 0; k < this.count; k++) {
      const j = (this.head + k) & (size - 1);
      codes[k] = this.codes[j]!;
      objs[k] = this.objs[j];
      olds[k] = this.olds[j];
    }
    this.codes = codes;
    this.objs = objs;
    this.olds = olds;
    this.head = 0;
  }
}
