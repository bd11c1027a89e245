import type { GroupVersionResource } from '../../shared/k8s.ts';
import { resourceNotFound } from '../../shared/apiErrors.ts';
import { builtinResources } from './builtins.ts';
import type { GroupInfo, ResourceInfo, ResourceRegistry, Unsubscribe } from '../vocabulary/resourceInfo.ts';

const gvrKey = (group: string, version: string, resource: string): string => `${group}/${version}/${resource}`;

/** The registry: built-ins at construction, CRD-served resources added and removed at run time. */
export class KindRegistry implements ResourceRegistry {
  private readonly byGvr = new Map<string, ResourceInfo>();
  private readonly listeners = new Set<() => void>();

  constructor(resources: ResourceInfo[] = builtinResources()) {
    for (const r of resources) this.byGvr.set(gvrKey(r.group, r.version, r.resource), r);
  }

  lookup(gvr: GroupVersionResource): ResourceInfo | undefined {
    return this.byGvr.get(gvrKey(gvr.group, gvr.version, gvr.resource));
  }

  require(gvr: GroupVersionResource): ResourceInfo {
    const info = this.lookup(gvr);
    if (!info) throw resourceNotFound();
    return info;
  }

  byKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    for (const r of this.byGvr.values()) if (r.group === group && r.version === version && r.kind === kind) return r;
    return undefined;
  }

  resolveName(name: string): ResourceInfo | undefined {
    const n = name.toLowerCase();
    const [plain, group] = n.includes('.') ? [n.slice(0, n.indexOf('.')), n.slice(n.indexOf('.') + 1)] : [n, undefined];
    const candidates = [...this.byGvr.values()]
      .filter((r) => group === undefined || r.group === group)
      .filter((r) => r.version === r.storageVersion);
    const hit = (r: ResourceInfo): boolean =>
      r.resource === plain || r.singularName === plain || r.kind.toLowerCase() === plain || r.shortNames.includes(plain);
    return candidates.find((r) => r.group === '' && hit(r)) ?? candidates.find(hit);
  }

  all(): ResourceInfo[] {
    return [...this.byGvr.values()];
  }

  inGroupVersion(group: string, version: string): ResourceInfo[] {
    return this.all().filter((r) => r.group === group && r.version === version);
  }

  groups(): GroupInfo[] {
    const groups = new Map<string, GroupInfo>();
    for (const r of this.byGvr.values()) {
      if (r.group === '') continue;
      let g = groups.get(r.group);
      if (!g) {
        g = { name: r.group, versions: [...r.servedVersions], preferredVersion: r.servedVersions[0] ?? r.version };
        groups.set(r.group, g);
      } else {
        for (const v of r.servedVersions) if (!g.versions.includes(v)) g.versions.push(v);
      }
    }
    return [...groups.values()];
  }

  onDidChange(listener: () => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Serves (or re-serves, replacing) every version of one group/resource. */
  serve(versions: ResourceInfo[]): void {
    const first = versions[0];
    if (!first) return;
    this.removeQuietly(first.group, first.resource);
    for (const r of versions) this.byGvr.set(gvrKey(r.group, r.version, r.resource), r);
    this.changed();
  }

  /** Stops serving every version of group/resource. */
  unserve(group: string, resource: string): void {
    if (this.removeQuietly(group, resource)) this.changed();
  }

  /** The storage-version record of a group/resource, whichever version is asked. */
  storageInfo(group: string, resource: string): ResourceInfo | undefined {
    for (const r of this.byGvr.values()) if (r.group === group && r.resource === resource && r.version === r.storageVersion) return r;
    return undefined;
  }

  private removeQuietly(group: string, resource: string): boolean {
    let removed = false;
    for (const [k, r] of this.byGvr) {
      if (r.group === group && r.resource === resource) {
        this.byGvr.delete(k);
        removed = true;
      }
    }
    return removed;
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
