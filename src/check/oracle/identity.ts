import type { KubeObject } from '../../shared/k8s.ts';

// Which object of one run is which object of another. Names and uids do not say: a controller that
// creates with generateName gets other names each run, and every object gets another uid. An
// object is known by its kind, namespace and name, or, when its name was generated, by the name's
// prefix, its controlling owner (itself known this way) and its labels (a label that holds a uid
// by the object it is the uid of); objects alike in all of that are told apart by the order they
// were created in.

/** A run's objects by identity. */
export type Identified = Map<string, KubeObject>;

/** The prefix a generated name was made from, if it was: generateName, or a prefix the references showed to vary. */
export type GeneratedPrefix = (object: KubeObject) => string | undefined;

export const byGenerateName: GeneratedPrefix = (o) => {
  const { name, generateName } = o.metadata;
  return generateName && name?.startsWith(generateName) ? generateName : undefined;
};

/** `apps/Deployment` (the group, not the version: a kind read in two versions is one object). */
export function kindOf(o: KubeObject): string {
  const apiVersion = o.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return `${group ? `${group}/` : ''}${o.kind ?? '?'}`;
}

export function identify(objects: readonly KubeObject[], generated: GeneratedPrefix = byGenerateName): Identified {
  const byUid = new Map<string, KubeObject>();
  for (const o of objects) if (o.metadata.uid) byUid.set(o.metadata.uid, o);
  const memo = new Map<KubeObject, string>();
  const resolving = new Set<KubeObject>();

  /** The object's controlling owner in this run, unless walking to it would loop. */
  const ownerOf = (o: KubeObject) => {
    const owners = o.metadata.ownerReferences ?? [];
    const owner = owners.find((r) => r.controller) ?? owners[0];
    const object = owner ? byUid.get(owner.uid) : undefined;
    return { owner, object: object && !resolving.has(object) ? object : undefined };
  };

  /**
   * A name made from a generated owner's name (a Deployment's ReplicaSet `<deployment>-<hash>`, its
   * Pods `<replicaset>-<suffix>`) is as random as the owner's: the owner's name in it is replaced by
   * the owner's identity, `<apps/Deployment default/web-* of …>-6b8f766d69`.
   */
  const derived = (o: KubeObject, name: string): string | undefined => {
    resolving.add(o);
    const { object } = ownerOf(o);
    const ownerName = object?.metadata.name;
    const ownerId = object && ownerName && name.startsWith(`${ownerName}-`) ? base(object) : undefined;
    resolving.delete(o);
    // Only an owner whose own name is not stable: its identity is not its kind, namespace and name.
    if (!object || ownerId === undefined || ownerId === plainId(object)) return undefined;
    return `<${ownerId}>${name.slice(ownerName!.length)}`;
  };

  const base = (o: KubeObject): string => {
    const cached = memo.get(o);
    if (cached !== undefined) return cached;
    const where = `${kindOf(o)} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}`;
    const generatedPrefix = generated(o);
    if (generatedPrefix === undefined) {
      const id = `${where}${derived(o, o.metadata.name ?? '') ?? o.metadata.name ?? ''}`;
      memo.set(o, id);
      return id;
    }
    const prefix = derived(o, generatedPrefix) ?? generatedPrefix;
    // An owner cycle (only a broken cluster has one) ends the walk instead of looping.
    resolving.add(o);
    const { owner, object: ownerObject } = ownerOf(o);
    const ownerId = ownerObject ? base(ownerObject) : owner ? `${owner.kind} ${owner.name}` : '';
    resolving.delete(o);
    const labels = Object.entries(o.metadata.labels ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${k}=${uidLabel(v, byUid, generated)}`)
      .join(',');
    const id = `${where}${prefix}*${ownerId ? ` of ${ownerId}` : ''}${labels ? ` {${labels}}` : ''}`;
    memo.set(o, id);
    return id;
  };

  // Generated names are numbered even when alone, so one run's single object is another's first.
  const groups = new Map<string, KubeObject[]>();
  for (const o of objects) {
    const id = base(o);
    const group = groups.get(id);
    if (group) group.push(o);
    else groups.set(id, [o]);
  }
  const out: Identified = new Map();
  for (const [id, group] of groups) {
    if (group.length === 1 && generated(group[0]!) === undefined && !id.includes('<')) {
      out.set(id, group[0]!);
      continue;
    }
    group.sort(creationOrder);
    group.forEach((o, i) => out.set(`${id} #${i + 1}`, o));
  }
  return out;
}

/** What a uid stands for in an object's identity (its labels): its object's kind, namespace and name, a generated name by its prefix. */
function uidLabel(value: string, byUid: ReadonlyMap<string, KubeObject>, generated: GeneratedPrefix): string {
  const o = byUid.get(value);
  if (!o) return value;
  const prefix = generated(o);
  return `<uid of ${kindOf(o)} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${prefix === undefined ? (o.metadata.name ?? '') : `${prefix}*`}>`;
}

/** An object's identity when its name is its own: kind, namespace and name. */
export function plainId(o: KubeObject): string {
  return `${kindOf(o)} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name ?? ''}`;
}

/** Older first; within a second, by name (objects alike in every other way are interchangeable). */
function creationOrder(a: KubeObject, b: KubeObject): number {
  const ka = `${a.metadata.creationTimestamp ?? ''} ${a.metadata.name ?? ''}`;
  const kb = `${b.metadata.creationTimestamp ?? ''} ${b.metadata.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
