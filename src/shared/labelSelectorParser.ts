import { badRequest } from './apiErrors.ts';

// The label selector grammar as apimachinery's parser reads it (pkg/labels/selector.go): a lexer
// of identifiers, keywords (`in`, `notin`) and operator symbols, and a parser that names what it
// found and what it expected, so a malformed `?labelSelector=` is refused with kube-apiserver's words
// (`unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt`).

export type Requirement =
  | { op: 'eq' | 'neq'; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | 'notexists'; key: string }
  | { op: 'gt' | 'lt'; key: string; value: number };

type TokenKind = 'end' | 'identifier' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<';
interface Token {
  kind: TokenKind;
  text: string;
}

const SYMBOLS = new Set(['=', '!', '(', ')', ',', '>', '<']);
const SYMBOL_TOKENS = new Set(['(', ')', ',', '!', '=', '==', '!=', '>', '<']);
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

function lex(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (WHITESPACE.has(c)) {
      i++;
    } else if (SYMBOLS.has(c)) {
      // The longest run of symbols that is still an operator (`!=` rather than `!` then `=`); every single symbol is one.
      let best = c;
      let j = i;
      while (j < text.length && SYMBOLS.has(text[j]!)) {
        const candidate = text.slice(i, j + 1);
        if (SYMBOL_TOKENS.has(candidate)) best = candidate;
        else if (best !== '') break;
        j++;
      }
      tokens.push({ kind: best as TokenKind, text: best });
      i += best.length;
    } else {
      let j = i;
      while (j < text.length && !WHITESPACE.has(text[j]!) && !SYMBOLS.has(text[j]!)) j++;
      const word = text.slice(i, j);
      tokens.push({ kind: word === 'in' || word === 'notin' ? word : 'identifier', text: word });
      i = j;
    }
  }
  tokens.push({ kind: 'end', text: '' });
  return tokens;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const NAME_RULE = 'must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')';
const SUBDOMAIN_RULE = 'a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')';
const VALUE_RULE = 'a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')';

/** IsQualifiedName's problems with a label key. */
function keyProblems(key: string): string[] {
  const parts = key.split('/');
  if (parts.length > 2) return [`a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  const problems: string[] = [];
  const name = parts.at(-1)!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') problems.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) problems.push('prefix part must be no more than 253 characters');
      if (!SUBDOMAIN.test(prefix)) problems.push(`prefix part ${SUBDOMAIN_RULE}`);
    }
  }
  if (name === '') problems.push('name part must be non-empty');
  else if (name.length > 63) problems.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) problems.push(`name part ${NAME_RULE}`);
  return problems;
}

function valueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) problems.push(VALUE_RULE);
  return problems;
}

class Parser {
  private pos = 0;
  private readonly tokens: Token[];

  constructor(text: string) {
    this.tokens = lex(text);
  }

  /** The next token; in a value's place the keywords are plain identifiers (`a=in` is fine). */
  private peek(asValue = true): Token {
    const t = this.tokens[Math.min(this.pos, this.tokens.length - 1)]!;
    return asValue && (t.kind === 'in' || t.kind === 'notin') ? { kind: 'identifier', text: t.text } : t;
  }

  private next(asValue = true): Token {
    const t = this.peek(asValue);
    this.pos++;
    return t;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const t = this.peek();
      if (t.kind === 'end') return requirements;
      if (t.kind !== 'identifier' && t.kind !== '!') throw badRequest(`found '${t.text}', expected: !, identifier, or 'end of string'`);
      requirements.push(this.requirement());
      const after = this.next();
      if (after.kind === 'end') return requirements;
      if (after.kind !== ',') throw badRequest(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek();
      if (following.kind !== 'identifier' && following.kind !== '!') throw badRequest(`found '${following.text}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    try {
      return this.requirementBody();
    } catch (e) {
      if (e instanceof RequirementError) throw badRequest(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  private requirementBody(): Requirement {
    let t = this.next();
    const negated = t.kind === '!';
    if (negated) t = this.next();
    if (t.kind !== 'identifier') throw new RequirementError(`found '${t.text}', expected: identifier`);
    const key = t.text;
    const problems = keyProblems(key);
    if (problems.length) throw new RequirementError(`<nil>: Invalid value: ${JSON.stringify(key)}: ${problems.join('; ')}`);
    const following = this.peek();
    if (following.kind === 'end' || following.kind === ',') return negated ? { op: 'notexists', key } : { op: 'exists', key };
    const op = this.next(false);
    switch (op.kind) {
      case 'in':
      case 'notin':
        return { op: op.kind, key, values: checkedValues(key, this.setValues()) };
      case '=':
      case '==':
      case '!=':
        return { op: op.kind === '!=' ? 'neq' : 'eq', key, value: checkedValues(key, [this.exactValue()])[0]! };
      case '>':
      case '<': {
        const text = this.exactValue();
        if (!/^[+-]?\d+$/.test(text)) throw new RequirementError(`values[0]: Invalid value: ${JSON.stringify(text)}: for 'Gt', 'Lt' operators, the value must be an integer`);
        return { op: op.kind === '>' ? 'gt' : 'lt', key, value: Number(text) };
      }
      default:
        throw new RequirementError(`found '${op.text}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private exactValue(): string {
    const t = this.peek();
    if (t.kind === 'end' || t.kind === ',') return '';
    this.pos++;
    if (t.kind === 'identifier') return t.text;
    throw new RequirementError(`found '${t.text}', expected: identifier`);
  }

  private setValues(): string[] {
    const open = this.next();
    if (open.kind !== '(') throw new RequirementError(`found '${open.text}' expected: '('`);
    const first = this.peek();
    if (first.kind === ')') {
      this.pos++;
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') throw new RequirementError(`found '${first.text}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const t = this.next();
      if (t.kind === 'identifier') {
        values.add(t.text);
        const after = this.peek();
        if (after.kind === ',') continue;
        if (after.kind === ')') break;
        throw new RequirementError(`found '${after.text}', expected: ',' or ')'`);
      }
      if (t.kind !== ',') throw new RequirementError(`found '${t.text}', expected: ',', or identifier`);
      // An empty item: `(,a)`, `(a,,b)` and `(a,)` hold the empty value.
      if (values.size === 0) values.add('');
      const after = this.peek();
      if (after.kind === ')') {
        values.add('');
        break;
      }
      if (after.kind === ',') {
        this.pos++;
        values.add('');
      }
    }
    this.pos++;
    return [...values].sort();
  }
}

class RequirementError extends Error {}

function checkedValues(key: string, values: string[]): string[] {
  const errors: string[] = [];
  values.forEach((v, i) => {
    const problems = valueProblems(v);
    if (problems.length) errors.push(`values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${problems.join('; ')}`);
  });
  if (errors.length === 1) throw new RequirementError(errors[0]);
  if (errors.length > 1) throw new RequirementError(`[${errors.join(', ')}]`);
  return values;
}

/** The requirements of a selector's text; throws ApiError 400 with the API server's message. */
export function parseRequirements(text: string): Requirement[] {
  return new Parser(text).parse();
}
