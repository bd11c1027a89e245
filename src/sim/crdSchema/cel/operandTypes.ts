import type { ASTNode } from '@marcbachmann/cel-js';
import type { JsonSchema } from '../jsonSchema.ts';
import { issueText } from './celCompile.ts';

// The type errors cel-go finds at CRD creation in the most common mistakes: comparing a field with
// a literal of another kind (`self.replicas == "3"`, `self.name > 1`). The rule's variables are
// dynamic to the evaluator; here the schema gives fields their CEL type.

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const NUMERIC = new Set(['int', 'double', 'uint']);

/** cel-go's `found no matching overload for '_==_' applied to '(int, string)'`, or undefined. */
export function operandTypeError(ast: ASTNode, self: JsonSchema, text: string): string | undefined {
  let found: string | undefined;
  const visit = (node: ASTNode): void => {
    if (found) return;
    if (COMPARISONS.has(node.op)) {
      const [left, right] = node.args as [ASTNode, ASTNode];
      const a = typeOf(left, self);
      const b = typeOf(right, self);
      if (a && b && !compatible(a, b)) {
        const at = Math.max(0, text.indexOf(node.op, left.end));
        found = issueText(text, at, `found no matching overload for '_${node.op}_' applied to '(${a}, ${b})'`);
        return;
      }
    }
    const walk = (v: unknown): void => {
      if (typeof v === 'object' && v !== null && 'op' in v && 'args' in v) visit(v as ASTNode);
      else if (Array.isArray(v)) v.forEach(walk);
    };
    if (node.op !== 'value') walk(node.args);
  };
  visit(ast);
  return found;
}

function compatible(a: string, b: string): boolean {
  return a === b || (NUMERIC.has(a) && NUMERIC.has(b));
}

/** The CEL type of a literal or of a field selected from self; undefined when dynamic. */
function typeOf(node: ASTNode, self: JsonSchema): string | undefined {
  if (node.op === 'value') {
    const v = node.args;
    if (typeof v === 'bigint') return 'int';
    if (typeof v === 'number') return 'double';
    if (typeof v === 'string') return 'string';
    if (typeof v === 'boolean') return 'bool';
    return undefined;
  }
  const schema = selected(node, self);
  if (!schema || schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields']) return undefined;
  switch (schema.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      return schema.format === 'date-time' || schema.format === 'date' || schema.format === 'duration' || schema.format === 'byte' ? undefined : 'string';
    default:
      return undefined;
  }
}

function selected(node: ASTNode, self: JsonSchema): JsonSchema | undefined {
  if (node.op === 'id') return node.args === 'self' ? self : undefined;
  if (node.op !== '.') return undefined;
  const parent = selected(node.args[0], self);
  return parent?.type === 'object' ? parent.properties?.[node.args[1]] : undefined;
}
