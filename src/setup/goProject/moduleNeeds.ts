// What Controller Lab's Go module asks of a project: the go directive and the direct requirements
// of the copy's go.mod (the shipped minimum.mod). Go takes the highest version any module requires,
// so a project below one of them is raised to it by `go mod tidy`; init go names those, and why.

/** What of a go.mod this compares (goMod.ts's GoMod has it). */
interface Versions {
  go?: string;
  requires: Map<string, { version: string; indirect: boolean }>;
  replaces: Map<string, string>;
}

export interface Raise {
  /** A module path, or `go` for the go directive. */
  path: string;
  have: string;
  need: string;
}

/** `v1.2.3`, `1.25`, `v0.0.0-20250604170112-4c0f3b243397` in order; a release after its pre-releases. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/.exec(v);
    return m ? { nums: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], rest: m[4] ?? '' } : { nums: [0, 0, 0], rest: v };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.rest === y.rest) return 0;
  if (x.rest === '') return 1;
  if (y.rest === '') return -1;
  return x.rest < y.rest ? -1 : 1;
}

/** The go directive and the modules the project has below what the module needs: `go` first, then by path. */
export function raisesFor(mod: Versions, needs: Versions): Raise[] {
  const out: Raise[] = [];
  if (mod.go && needs.go && compareVersions(mod.go, needs.go) < 0) out.push({ path: 'go', have: mod.go, need: needs.go });
  const paths = [...needs.requires.keys()].filter((p) => !needs.requires.get(p)!.indirect).sort();
  for (const path of paths) {
    const have = mod.requires.get(path)?.version;
    const need = needs.requires.get(path)!.version;
    if (have && !mod.replaces.has(path) && compareVersions(have, need) < 0) out.push({ path, have, need });
  }
  return out;
}

export const NEEDS_WHY = "the lowest versions Controller Lab's Go module works with";

/** `go 1.24.0 → 1.25.0, sigs.k8s.io/controller-runtime v0.22.4 → v0.23.0` */
export function raisesText(raises: Raise[]): string {
  return raises.map((r) => `${r.path} ${r.have} → ${r.need}`).join(', ');
}

/** `go 1.25.0, sigs.k8s.io/controller-runtime v0.23.0` */
export function needsText(raises: Raise[]): string {
  return raises.map((r) => `${r.path} ${r.need}`).join(', ');
}
