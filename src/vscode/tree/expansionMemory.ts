// Which rows the user expanded or collapsed, kept in the workspace's state so a reload shows the
// tree as it was left. Rows never touched follow the tree's defaults. Bounded: the oldest entries go.

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

const KEY = 'controllerLab.tree.expansion';
const MAX_ENTRIES = 500;

export class ExpansionMemory {
  private readonly memento: MementoLike;
  private readonly states: Map<string, boolean>;

  constructor(memento: MementoLike) {
    this.memento = memento;
    const saved = memento.get<Record<string, unknown>>(KEY);
    this.states = new Map(Object.entries(saved && typeof saved === 'object' ? saved : {}).filter((e): e is [string, boolean] => typeof e[1] === 'boolean'));
  }

  /** true: expanded, false: collapsed, undefined: the user never changed it. */
  state(id: string): boolean | undefined {
    return this.states.get(id);
  }

  set(id: string, expanded: boolean): void {
    if (this.states.get(id) === expanded) return;
    this.states.delete(id); // re-inserted last: the newest survive the bound
    this.states.set(id, expanded);
    while (this.states.size > MAX_ENTRIES) this.states.delete(this.states.keys().next().value as string);
    void this.memento.update(KEY, Object.fromEntries(this.states));
  }
}
