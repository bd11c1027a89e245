// `import('…')` is an import too, but ESLint's no-restricted-imports reads only import and export
// declarations: through a dynamic import a part could reach past another's index.ts, or up into a
// layer above it, and the lint would not see it. This rule holds an `import()` of a module named
// by a literal to the same options (`paths` and `patterns` with `regex`), with the same messages.
// An `import()` whose module is computed at run time names no path the lint could check.

/** @type {import('eslint').Rule.RuleModule} */
const noRestrictedDynamicImports = {
  meta: {
    type: 'problem',
    docs: { description: "no-restricted-imports' paths and patterns, for import() of a literal module name" },
    schema: [{ type: 'object' }],
  },
  create(context) {
    const { paths = [], patterns = [] } = context.options[0] ?? {};
    const matchers = patterns.map(({ regex, message, caseSensitive }) => ({ regex: new RegExp(regex, caseSensitive ? 'u' : 'iu'), message }));
    return {
      ImportExpression(node) {
        const source = literalText(node.source);
        if (source === undefined) return;
        const path = paths.find((p) => p.name === source);
        if (path) {
          context.report({ node, message: `'${source}' import is restricted from being used. ${path.message}` });
          return;
        }
        const pattern = matchers.find((m) => m.regex.test(source));
        if (pattern) context.report({ node, message: `'${source}' import is restricted from being used by a pattern. ${pattern.message}` });
      },
    };
  },
};

/** The text of `'x'` or of a template literal without substitutions; undefined for anything computed. */
function literalText(node) {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

export const RULE_ID = 'layers/no-restricted-dynamic-imports';

/** The plugin the layer rules register the rule under (`layers`). */
export const layersPlugin = { rules: { 'no-restricted-dynamic-imports': noRestrictedDynamicImports } };
