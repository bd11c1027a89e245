import type { ASTNode } from '@marcbachmann/cel-js';
import type { JsonSchema } from '../jsonSchema.ts';

// A rough form of the API server's static cost check at CRD creation: a rule whose nested loops
// (all, exists, exists_one, map, filter) over the object's lists and maps could run more than
// STATIC_COST_LIMIT steps is refused ("estimated rule cost exceeds budget"). A list or map
// without maxItems/maxProperties counts as large as a request could make it.

export const STATIC_COST_LIMIT = 10_000_000;
/** What a list without maxItems may hold: a 3 MiB request of 2-byte items, as the estimator assumes. */
const UNBOUNDED = 1_572_864;
const LOOPS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

type Scope = Map<string, JsonSchema | undefined>;

function isNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

/** The largest number of innermost iterations the rule's loops could make. */
export function estimatedIterations(ast: ASTNode, self: JsonSchema): number {
  return iterations(ast, new Map([['self', self], ['oldSelf', self]]));
}

function iterations(node: ASTNode, scope: Scope): number {
  if (node.op === 'rcall' && LOOPS.has(node.args[0]) && node.args[2].length >= 2) {
    const [, receiver, args] = node.args;
    const target = schemaOf(receiver, scope);
    const variable = args[0]?.op === 'id' ? args[0].args : undefined;
    const inner: Scope = new Map(scope);
    if (variable) inner.set(variable, elementSchema(target));
    const body = Math.max(1, ...args.slice(1).map((a) => iterations(a, inner)));
    return Math.max(iterations(receiver, scope), cardinality(target) * body);
  }
  let most = 0;
  const visit = (v: unknown): void => {
    if (isNode(v)) most = Math.max(most, iterations(v, scope));
    else if (Array.isArray(v)) v.forEach(visit);
  };
  if (node.op !== 'value') visit(node.args);
  return most;
}

function cardinality(schema: JsonSchema | undefined): number {
  if (!schema) return 1;
  if (schema.type === 'array') return schema.maxItems ?? UNBOUNDED;
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') return schema.maxProperties ?? UNBOUNDED;
  return 1;
}

function elementSchema(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema) return undefined;
  if (schema.type === 'array') return schema.items;
  // A comprehension over a map ranges over its keys.
  return { type: 'string' };
}

/** The schema of `self.a.b`, `x.items[0]`, ... where the chain starts at a known variable. */
function schemaOf(node: ASTNode, scope: Scope): JsonSchema | undefined {
  if (node.op === 'id') return scope.get(node.args);
  if (node.op === '.' || node.op === '.?') {
    const parent = schemaOf(node.args[0], scope);
    const additional = typeof parent?.additionalProperties === 'object' ? parent.additionalProperties : undefined;
    return parent?.properties?.[node.args[1]] ?? additional;
  }
  if (node.op === '[]' || node.op === '[?]') {
    const parent = schemaOf(node.args[0], scope);
    return parent?.items ?? (typeof parent?.additionalProperties === 'object' ? parent.additionalProperties : undefined);
  }
  return undefined;
}

/** The Forbidden detail kube-apiserver gives for a rule over the limit. */
export function costExceededDetail(estimate: number): string {
  const factor = estimate / STATIC_COST_LIMIT;
  const text = factor > 100 ? 'more than 100x' : `${factor.toFixed(1)}x`;
  return `estimated rule cost exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
