import type { SharedIndexInformer, InformerStats, Probe } from '../../informer/index.ts';
import type { ApiResource, KubeObject } from '../../shared/k8s.ts';
import { qualifiedResource } from '../../shared/k8s.ts';
import { objectKey } from '../../shared/keys.ts';
import type { Clock } from '../../shared/clock.ts';
import type { NewTimelineEvent } from './eventRing.ts';
import { ListProgress } from './listProgress.ts';
import type { ListProgressSnapshot } from './listProgress.ts';
import { ObjectHistory } from './objectHistory.ts';
import { InformerMarkers } from './informerMarkers.ts';
import type { VersionChange } from './objectHistory.ts';
import { splitKey } from '../../shared/keys.ts';

// One informer as the views see it: the objects it holds grouped by namespace (for the tree), the
// last change of each, recent versions (for diffs), its health, and the timeline events its probes
// produce. It listens to the informer through a handler and its probes; nothing here knows VS Code.

export interface InformerSpec {
  resource: ApiResource;
  /** '' = all namespaces (or cluster-scoped). */
  namespace: string;
  labelSelector: string;
}

export interface ObjectEntry {
  key: string;
  namespace: string;
  name: string;
  object: Readonly<KubeObject>;
  lastChange: VersionChange;
  lastChangeAt: number;
}

export type InformerPhase = 'syncing' | 'synced' | 'retrying' | 'stopped';

export interface InformerChange {
  /** The informer's own row changed (phase, counts, health). */
  informer: boolean;
  /** Namespaces whose set of objects changed (added/removed objects, or a new/emptied namespace). */
  namespaces: Set<string>;
  /** Objects whose content or last change changed (keys). */
  objects: Set<string>;
}


/** The informer's id within its cluster: `configmaps`, `deployments.apps@default`, `pods@prod[app=web]`. */
export function informerName(spec: InformerSpec): string {
  let name = qualifiedResource(spec.resource);
  if (spec.namespace) name += `@${spec.namespace}`;
  if (spec.labelSelector) name += `[${spec.labelSelector}]`;
  return name;
}

export interface InformerSessionOptions {
  clusterId: string;
  spec: InformerSpec;
  informer: SharedIndexInformer;
  clock: Clock;
  /** The cluster's display name, carried by timeline events (lanes of two clusters never merge). */
  clusterLabel?: string;
  /** Where this informer's timeline events go. */
  emitTimeline: (event: NewTimelineEvent) => void;
  historyPerObject?: number;
  /** The informer's transform drops metadata.managedFields (object documents say so). */
  managedFieldsDropped?: boolean;
  /** Soft limit: `onOverLimit` is called once, before the informer would hold more objects. 0 = none. */
  maxObjects?: number;
  onOverLimit?: (objects: number, listing: boolean) => void;
}

export class InformerSession {
  readonly clusterId: string;
  readonly spec: InformerSpec;
  readonly name: string;
  /** Unique across clusters: `${clusterId}/${name}`. */
  readonly id: string;
  readonly informer: SharedIndexInformer;
  readonly history: ObjectHistory;
  phase: InformerPhase = 'syncing';
  lastError: string | undefined;
  /** The resourceVersion of the newest event or list seen. */
  latestResourceVersion = '';
  /** Watch events seen, for the status bar's events/s. */
  eventsSeen = 0;
  readonly managedFieldsDropped: boolean;
  private readonly progress = new ListProgress();
  private readonly maxObjects: number;
  private readonly onOverLimit: ((objects: number, listing: boolean) => void) | undefined;
  private warnedOverLimit = false;
  private readonly byNamespace = new Map<string, Map<string, ObjectEntry>>();
  private readonly byKey = new Map<string, ObjectEntry>();
  private readonly clock: Clock;
  private readonly clusterLabel: string;
  /** The resourceVersion each object's lane last showed: a relist adds lanes for objects only it brought. */
  private readonly timelineVersions = new Map<string, string>();
  /** Its relists and 410s, as the timeline marks them. */
  private readonly markers = new InformerMarkers();
  private readonly emitTimeline: (event: NewTimelineEvent) => void;
  private listeners: ((change: InformerChange) => void)[] = [];
  private pending: InformerChange | undefined;
  private disposers: (() => void)[] = [];

  constructor(options: InformerSessionOptions) {
    this.clusterId = options.clusterId;
    this.spec = options.spec;
    this.name = informerName(options.spec);
    this.id = `${options.clusterId}/${this.name}`;
    this.informer = options.informer;
    this.clock = options.clock;
    this.clusterLabel = options.clusterLabel ?? options.clusterId;
    this.emitTimeline = options.emitTimeline;
    this.history = new ObjectHistory(options.historyPerObject ?? 10);
    this.managedFieldsDropped = options.managedFieldsDropped ?? false;
    this.maxObjects = options.maxObjects ?? 0;
    this.onOverLimit = options.onOverLimit;
    this.disposers.push(this.informer.onProbe((p) => this.onProbe(p)));
    const registration = this.informer.addEventHandler(
      {
        onAdd: (obj) => this.upsert(obj as Readonly<KubeObject>, 'ADDED'),
        onUpdate: (oldObj, newObj) => {
          if (oldObj === newObj) return; // a resync re-delivers the same object: nothing changed
          this.upsert(newObj as Readonly<KubeObject>, 'MODIFIED');
        },
        onDelete: (obj) => this.remove(obj as Readonly<KubeObject>),
      },
      { name: 'controller-lab-views' },
    );
    this.disposers.push(() => registration.remove());
  }

  get resource(): ApiResource {
    return this.spec.resource;
  }

  get count(): number {
    return this.byKey.size;
  }

  stats(): InformerStats {
    return this.informer.stats();
  }

  /** Namespaces that hold objects, sorted; '' for cluster-scoped objects. */
  namespaces(): string[] {
    return [...this.byNamespace.keys()].sort();
  }

  /** The objects of one namespace, sorted by name. */
  objectsIn(namespace: string): ObjectEntry[] {
    const names = this.byNamespace.get(namespace);
    if (!names) return [];
    return [...names.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  countIn(namespace: string): number {
    return this.byNamespace.get(namespace)?.size ?? 0;
  }

  /** The list under way (the first one or a relist): objects and pages so far, rate; undefined when none is. */
  listProgress(): ListProgressSnapshot | undefined {
    return this.progress.snapshot(this.clock.now());
  }

  entry(key: string): ObjectEntry | undefined {
    return this.byKey.get(key);
  }

  start(): void {
    this.informer.run();
  }

  stop(): void {
    this.phase = 'stopped';
    this.informer.stop();
    this.markInformer();
    this.flush();
  }

  dispose(): void {
    for (const d of this.disposers.splice(0)) d();
    if (!this.informer.isStopped()) this.informer.stop();
    this.listeners = [];
  }

  /** Changes are collected and delivered in one call per microtask burst. */
  onDidChange(listener: (change: InformerChange) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  private change(): InformerChange {
    if (!this.pending) {
      this.pending = { informer: false, namespaces: new Set(), objects: new Set() };
      queueMicrotask(() => this.flush());
    }
    return this.pending;
  }

  private flush(): void {
    const change = this.pending;
    this.pending = undefined;
    if (!change) return;
    for (const l of this.listeners) l(change);
  }

  private markInformer(): void {
    this.change().informer = true;
  }

  private upsert(obj: Readonly<KubeObject>, change: VersionChange): void {
    const key = objectKey(obj);
    const namespace = obj.metadata.namespace ?? '';
    const name = obj.metadata.name ?? '';
    const at = this.clock.now();
    const resourceVersion = obj.metadata.resourceVersion ?? '';
    let names = this.byNamespace.get(namespace);
    if (!names) {
      names = new Map();
      this.byNamespace.set(namespace, names);
    }
    const existing = names.get(name);
    const entry: ObjectEntry = { key, namespace, name, object: obj, lastChange: existing ? 'MODIFIED' : change, lastChangeAt: at };
    names.set(name, entry);
    this.byKey.set(key, entry);
    this.history.record(key, { resourceVersion, object: obj, change: entry.lastChange, at });
    const pending = this.change();
    if (existing) pending.objects.add(key);
    else {
      pending.namespaces.add(namespace);
      pending.informer = true;
      this.checkLimit(this.byKey.size, false);
    }
  }

  /** Warns once when the informer holds (or a list is about to bring) more objects than allowed. */
  private checkLimit(objects: number, listing: boolean): void {
    if (this.warnedOverLimit || this.maxObjects <= 0 || objects <= this.maxObjects) return;
    this.warnedOverLimit = true;
    try {
      this.onOverLimit?.(objects, listing);
    } catch {
      // A failing warning must not stop the informer's views from updating.
    }
  }

  private remove(obj: Readonly<KubeObject>): void {
    const key = objectKey(obj);
    const namespace = obj.metadata.namespace ?? '';
    const names = this.byNamespace.get(namespace);
    names?.delete(obj.metadata.name ?? '');
    if (names && names.size === 0) this.byNamespace.delete(namespace);
    this.byKey.delete(key);
    this.history.record(key, { resourceVersion: obj.metadata.resourceVersion ?? '', object: obj, change: 'DELETED', at: this.clock.now() });
    const pending = this.change();
    pending.namespaces.add(namespace);
    pending.informer = true;
  }

  private timeline(at: number, type: NewTimelineEvent['type'], key: string, resourceVersion: string): void {
    const { namespace, name } = splitKey(key);
    this.emitTimeline({
      at,
      informer: this.id,
      resource: qualifiedResource(this.spec.resource),
      namespace,
      name,
      type,
      resourceVersion,
      kind: this.spec.resource.kind,
      cluster: this.clusterLabel,
    });
  }

  /** An object's lane on the timeline: a watch event, or a list that brought something new. */
  private objectTimeline(at: number, type: 'ADDED' | 'MODIFIED' | 'DELETED', key: string, resourceVersion: string): void {
    if (type === 'DELETED') this.timelineVersions.delete(key);
    else this.timelineVersions.set(key, resourceVersion);
    this.timeline(at, type, key, resourceVersion);
  }

  private onProbe(p: Probe): void {
    if (this.progress.observe(p)) {
      this.markInformer();
      // Pages arrive before the cache is filled: warn while the list is still coming in.
      if (p.kind === 'listPage') this.checkLimit(this.progress.listed, true);
    }
    const marker = this.markers.markerFor(p);
    if (marker) this.timeline(p.at, marker.type, '', marker.resourceVersion);
    switch (p.kind) {
      case 'event':
        this.eventsSeen++;
        if (p.resourceVersion) this.latestResourceVersion = p.resourceVersion;
        // Bookmarks and errors belong to the informer, not to an object: key '' puts them in its lane.
        if (p.type === 'BOOKMARK' || p.type === 'ERROR') this.timeline(p.at, p.type, '', p.resourceVersion);
        else this.objectTimeline(p.at, p.type, p.key, p.resourceVersion);
        if (p.type === 'BOOKMARK') this.markInformer();
        break;
      case 'delta':
        // A list (the first one, or a relist after 410) delivers objects as Replaced deltas and the
        // ones that vanished as Deleted tombstones: each gets its lane, as a watch event would.
        if (p.type === 'Replaced') {
          const shown = this.timelineVersions.get(p.key);
          if (shown === undefined) this.objectTimeline(p.at, 'ADDED', p.key, p.resourceVersion);
          else if (shown !== p.resourceVersion) this.objectTimeline(p.at, 'MODIFIED', p.key, p.resourceVersion);
        } else if (p.type === 'Deleted' && this.timelineVersions.has(p.key)) {
          this.objectTimeline(p.at, 'DELETED', p.key, p.resourceVersion);
        }
        break;
      case 'listEnd':
        this.latestResourceVersion = p.resourceVersion;
        if (this.phase === 'retrying') this.phase = this.informer.hasSynced() ? 'synced' : 'syncing';
        this.lastError = undefined;
        this.markInformer();
        break;
      case 'expired':
        this.markInformer();
        break;
      case 'synced':
        this.phase = 'synced';
        this.lastError = undefined;
        this.markInformer();
        break;
      case 'watchOpen':
        if (this.phase === 'retrying') this.phase = this.informer.hasSynced() ? 'synced' : 'syncing';
        this.lastError = undefined;
        this.markInformer();
        break;
      case 'error':
        this.lastError = p.message;
        this.markInformer();
        break;
      case 'backoff':
        this.phase = 'retrying';
        this.markInformer();
        break;
      case 'relist':
      case 'watchClose':
        this.markInformer();
        break;
      case 'stopped':
        this.phase = 'stopped';
        this.markInformer();
        break;
      default:
        break;
    }
  }
}
