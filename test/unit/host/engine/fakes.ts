import type { KubeObject } from '../../../../src/shared/k8s.ts';
import { objectKey } from '../../../../src/shared/keys.ts';
import type { KindRef } from '../../../../src/controllerProtocol/api.ts';
import type { ControllerQueue, InformerEvent, KeyState, QueueCounts, KindInformer, ObjectWriter } from '../../../../src/host/engine/ports.ts';
import type { QueueSnapshot } from '../../../../src/controllerProtocol/records.ts';

// Test doubles for the controller loop's ports: an informer fed by hand, a FIFO queue that records
// requeue calls, and a writer that assigns resourceVersions.

export class FakeInformer implements KindInformer {
  readonly kind: KindRef;
  readonly objects = new Map<string, KubeObject>();
  private readonly handlers: ((e: InformerEvent) => void)[] = [];
  constructor(kind: KindRef) {
    this.kind = kind;
  }
  onEvent(h: (e: InformerEvent) => void): void {
    this.handlers.push(h);
  }
  start(): void {}
  stop(): void {}
  hasSynced(): boolean {
    return true;
  }
  get(key: string): KubeObject | undefined {
    return this.objects.get(key);
  }
  list(namespace?: string): KubeObject[] {
    return [...this.objects.values()].filter((o) => !namespace || o.metadata.namespace === namespace);
  }
  emit(type: InformerEvent['type'], object: KubeObject): void {
    const key = objectKey(object);
    const old = this.objects.get(key);
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, object);
    for (const h of this.handlers) h({ type, object, old });
  }
}

export class FakeQueue implements ControllerQueue {
  readonly calls: string[] = [];
  private readonly ready: string[] = [];
  private readonly processing = new Set<string>();
  // client-go's dirty set: a key added while processing runs again after `done`.
  private readonly dirty = new Set<string>();
  private waiter: ((k: string | undefined) => void) | undefined;
  private closed = false;
  private listener: () => void = () => {};
  add(key: string): void {
    if (this.processing.has(key)) this.dirty.add(key);
    else if (!this.ready.includes(key)) this.ready.push(key);
    this.flush();
  }
  async get(): Promise<string | undefined> {
    const k = this.ready.shift();
    if (k !== undefined) {
      this.processing.add(k);
      return k;
    }
    if (this.closed) return undefined;
    return new Promise((r) => (this.waiter = r));
  }
  private flush(): void {
    if (!this.waiter) return;
    const k = this.ready.shift();
    if (k === undefined) return;
    const w = this.waiter;
    this.waiter = undefined;
    this.processing.add(k);
    w(k);
    this.listener();
  }
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.ready.push(key);
    this.flush();
  }
  forget(key: string): void {
    this.calls.push(`forget ${key}`);
  }
  addRateLimited(key: string): void {
    this.calls.push(`addRateLimited ${key}`);
  }
  addAfter(key: string, ms: number): void {
    this.calls.push(`addAfter ${key} ${ms}`);
  }
  numRequeues(): number {
    return 0;
  }
  shutDown(): void {
    this.closed = true;
    this.waiter?.(undefined);
  }
  counts(): QueueCounts {
    return { depth: this.ready.length, processing: this.processing.size, waiting: 0 };
  }
  snapshot(): QueueSnapshot {
    return { at: 0, depth: this.ready.length, processing: this.processing.size, waiting: 0, keys: this.ready.map((key) => ({ key, state: 'queued', retries: 0 })) };
  }
  onChange(l: () => void): void {
    this.listener = l;
  }
  stateOf(key: string): KeyState | undefined {
    if (this.processing.has(key)) return { state: 'processing', ...(this.dirty.has(key) ? { dirty: true } : {}) };
    return this.ready.includes(key) ? { state: 'queued' } : undefined;
  }
}

export class FakeWriter implements ObjectWriter {
  rv = 100;
  readonly created: KubeObject[] = [];
  async create(obj: KubeObject): Promise<KubeObject> {
    const out = { ...obj, metadata: { ...obj.metadata, name: obj.metadata.name ?? `${obj.metadata.generateName}x`, resourceVersion: String(++this.rv) } };
    this.created.push(out);
    return out;
  }
  async update(obj: KubeObject): Promise<KubeObject> {
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++this.rv) } };
  }
  async patch(ref: { name: string }): Promise<KubeObject> {
    return { metadata: { name: ref.name, resourceVersion: String(++this.rv) } };
  }
  async delete(): Promise<undefined> {
    ++this.rv;
    return undefined;
  }
}
