// Objects in the cache are shared by every handler and every reader: nobody may mutate them
// (client-go: "handlers MUST NOT modify objects"). The type says so; no copy is made at run time.

/** A recursively read-only view of `T`. Functions stay callable; arrays become readonly arrays. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
