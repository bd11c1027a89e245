// Dev tool (not run in CI): writes src/sim/goTypes/generatedSchemas.ts, the protobuf field
// tables of every kind the simulated cluster decodes, from the published schemas instead of by hand.
//
//   node scripts/generate-protobuf-schemas.mjs [k8s.io/api git dir] [k8s.io/apimachinery git dir]
//
// Both are git directories read with `git show` (no work tree needed); they default to the local
// mirrors. From each package's generated.proto it takes field numbers, types and repetition; from
// the Go structs beside it (types.go …) what the JSON encoding needs and the .proto does not say:
// the JSON name, `json:",inline"` embedding, and whether a zero scalar is omitted (omitempty on a
// non-pointer field — Go's protobuf encoder writes those zeros, its JSON encoder leaves them out).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [apiRepo = '/work/.mirror/kubernetes+api/repo', machineryRepo = '/work/.mirror/kubernetes+apimachinery/repo'] = process.argv.slice(2);
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'sim', 'goTypes', 'generatedSchemas.ts');

/**
 * apiVersion → kinds: every kind registered in src/sim/kinds/builtinKinds.ts (read from there, so a
 * new kind module brings its schema with it), and the bodies of subresources that are no kind of
 * their own. Run with Node 24 (`node_modules/.bin/node`), which loads the TypeScript modules.
 */
const { BUILTIN_KINDS } = await import('../src/sim/kinds/builtinKinds.ts');
const KINDS = {
  'autoscaling/v1': ['Scale'], // the scale subresource's body (client-go's scale client)
  'policy/v1': ['Eviction'],
  'authentication.k8s.io/v1': ['TokenRequest'],
};
for (const { api, protobuf } of BUILTIN_KINDS) {
  if (protobuf === false) continue;
  const apiVersion = api.group === '' ? api.version : `${api.group}/${api.version}`;
  (KINDS[apiVersion] ??= []).push(api.kind);
}
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Messages the decoder turns into JSON scalars itself (Time → RFC 3339 …): not descended into. */
const SPECIAL = new Set([
  `${META}.Time`, `${META}.MicroTime`, `${META}.Duration`, `${META}.FieldsV1`,
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString', 'k8s.io.apimachinery.pkg.api.resource.Quantity', 'k8s.io.apimachinery.pkg.runtime.RawExtension',
]);
const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'double']);

const git = (repo, ...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

/** The git directory and folder of a proto package (k8s.io.api.apps.v1 → apps/v1 in k8s.io/api). */
function source(pkg) {
  const api = /^k8s\.io\.api\.(.+)$/.exec(pkg);
  if (api) return { repo: apiRepo, dir: api[1].replaceAll('.', '/') };
  const machinery = /^k8s\.io\.apimachinery\.(.+)$/.exec(pkg);
  if (machinery) return { repo: machineryRepo, dir: machinery[1].replaceAll('.', '/') };
  throw new Error(`no source for proto package ${pkg}`);
}

/** generated.proto → { package, messages: name → [{ number, name, type, repeated, map }] } (proto2, as go-to-protobuf writes it). */
function parseProto(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const pkg = /^package\s+([\w.]+);/m.exec(code)[1];
  const messages = new Map();
  for (const [, name, body] of code.matchAll(/^message\s+(\w+)\s*\{([^}]*)\}/gm)) {
    const fields = [];
    for (const [, label, type, fieldName, number] of body.matchAll(/^\s*(optional|repeated|required)?\s*(map<\s*\w+\s*,\s*[\w.]+\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+)/gm)) {
      const map = /^map<\s*(\w+)\s*,\s*([\w.]+)\s*>$/.exec(type);
      if (map && map[1] !== 'string') throw new Error(`${pkg}.${name}.${fieldName}: map keys other than string`);
      const valueType = map ? map[2] : type;
      const full = SCALARS.has(valueType) ? valueType : valueType.startsWith('.') ? valueType.slice(1) : `${pkg}.${valueType}`;
      if (!SCALARS.has(full) && !full.includes('.')) throw new Error(`${pkg}.${name}.${fieldName}: unknown scalar ${valueType}`);
      fields.push({ number: Number(number), name: fieldName, type: full, repeated: label === 'repeated', map: Boolean(map) });
    }
    messages.set(`${pkg}.${name}`, fields);
  }
  return { pkg, messages };
}

/** Go structs → "Struct.fieldNumber" → { json, inline, omitZero, nullWhenZero } from the json and protobuf tags. */
function parseGoStructs(text, into) {
  let struct;
  for (const line of text.split('\n')) {
    const open = /^type\s+(\w+)\s+struct\s*\{/.exec(line);
    if (open) struct = open[1];
    else if (/^\}/.test(line)) struct = undefined;
    if (!struct) continue;
    const field = /^\t(\S+)(?:\s+(\S+))?\s+`([^`]*)`/.exec(line);
    const proto = field && /protobuf:"\w+,(\d+),/.exec(field[3]);
    if (!proto) continue;
    const embedded = field[2] === undefined;
    const goType = field[2] ?? field[1];
    const json = /json:"([^"]*)"/.exec(field[3])?.[1] ?? '';
    const [jsonName, ...options] = json.split(',');
    const pointer = goType.startsWith('*');
    const scalar = /^\*?(u?int\d*|bool|float\d+|string)$/.test(goType) || /casttype=/.test(field[3]);
    into.set(`${struct}.${proto[1]}`, {
      json: jsonName,
      inline: embedded && (jsonName === '' || options.includes('inline')),
      omitZero: scalar && !pointer && options.includes('omitempty'),
      // A non-pointer metav1.Time is a struct: Go's JSON prints its zero as null (omitempty or not).
      nullWhenZero: !pointer && /^(metav1\.)?(Micro)?Time$/.test(goType),
      omitempty: options.includes('omitempty'),
      scalar,
      pointer,
    });
  }
}

const messages = new Map();
const goFields = new Map(); // "pkg.Struct.number" → tag info
const commits = {};
const loaded = new Set();

/** Reads one package's generated.proto and Go structs (once), on first reference. */
function load(pkg) {
  if (loaded.has(pkg)) return;
  loaded.add(pkg);
  const { repo, dir } = source(pkg);
  commits[repo] ??= git(repo, 'rev-parse', 'HEAD').trim();
  for (const [name, fields] of parseProto(git(repo, 'show', `HEAD:${dir}/generated.proto`)).messages) messages.set(name, fields);
  const goFiles = git(repo, 'ls-tree', '--name-only', `HEAD:${dir}`).split('\n').filter((f) => /\.go$/.test(f) && !/(_test|\.pb|^zz_|swagger_doc_generated)/.test(f.replace(/\.go$/, '')));
  for (const file of goFiles) {
    const perStruct = new Map();
    parseGoStructs(git(repo, 'show', `HEAD:${dir}/${file}`), perStruct);
    for (const [key, info] of perStruct) goFields.set(`${pkg}.${key}`, info);
  }
}

/** Group/version → proto package, as k8s.io/api lays them out. */
function protoPackage(apiVersion) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  return `k8s.io.api.${group.split('.')[0]}.${version}`;
}

const roots = {};
for (const [apiVersion, kinds] of Object.entries(KINDS)) for (const kind of kinds) roots[`${apiVersion}/${kind}`] = `${protoPackage(apiVersion)}.${kind}`;
roots['meta.k8s.io/v1/DeleteOptions'] = `${META}.DeleteOptions`;
roots['v1/DeleteOptions'] = `${META}.DeleteOptions`;

// Everything reachable from the roots, special types as leaves.
const reachable = new Set();
const pending = Object.values(roots);
while (pending.length > 0) {
  const name = pending.pop();
  if (reachable.has(name) || SPECIAL.has(name)) continue;
  load(name.slice(0, name.lastIndexOf('.')));
  const fields = messages.get(name);
  if (!fields) throw new Error(`message ${name} not found in the schemas read`);
  reachable.add(name);
  for (const f of fields) if (!SCALARS.has(f.type)) pending.push(f.type);
}

/** Printed when unset: a field without omitempty (as zero, or null for pointers, slices and maps), and any non-pointer struct (omitempty never leaves a struct out). */
const alwaysPrinted = (go, f) => !go.omitempty || (!go.pointer && !go.scalar && !f.repeated && !f.map && !SCALARS.has(f.type));

const short = (name) => name.replace(/^k8s\.io\./, '');
function row(name) {
  const fields = messages.get(name).map((f) => {
    const go = goFields.get(`${name}.${f.number}`);
    const flags = `${f.repeated ? 'r' : ''}${f.map ? 'm' : ''}${go?.inline ? 'i' : ''}${go?.omitZero ? 'z' : ''}${go?.nullWhenZero ? 'n' : ''}${go && alwaysPrinted(go, f) ? 'e' : ''}${go?.pointer ? 'p' : ''}`;
    const json = go?.json || f.name;
    return `[${f.number},${JSON.stringify(json)},${JSON.stringify(SCALARS.has(f.type) ? f.type : short(f.type))}${flags ? `,${JSON.stringify(flags)}` : ''}]`;
  });
  return `  ${JSON.stringify(short(name))}: [${fields.join(',')}],`;
}

const header = `// GENERATED by scripts/generate-protobuf-schemas.mjs — do not edit by hand.
// From k8s.io/api (github.com/kubernetes/api) at ${commits[apiRepo]}
// and k8s.io/apimachinery (github.com/kubernetes/apimachinery) at ${commits[machineryRepo]}:
// their generated.proto files, plus the Go struct tags beside them for JSON names, inlining and
// omitempty. Regenerate: node scripts/generate-protobuf-schemas.mjs [api git dir] [apimachinery git dir]
// Holds only the messages reachable from the kinds the simulated cluster serves.
`;
const body = `${header}
/**
 * [field number, JSON name, type, flags?]. type: a proto scalar or a message's full name without
 * "k8s.io.". flags: r repeated, m map<string, type>, i inlined into the parent (json:",inline"),
 * z a zero value is left out of the JSON (non-pointer omitempty field), n a zero time is null
 * in the JSON (a non-pointer metav1.Time), e printed when unset (no omitempty, or a non-pointer
 * struct), p a Go pointer.
 */
export type GeneratedField = readonly [number: number, json: string, type: string, flags?: string];

/** Proto message by \`apiVersion/kind\` as a body's TypeMeta names it. */
export const GENERATED_KINDS: Record<string, string> = {
${Object.entries(roots).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(short(v))},`).join('\n')}
};

export const GENERATED_MESSAGES: Record<string, readonly GeneratedField[]> = {
${[...reachable].sort().map(row).join('\n')}
};
`;
writeFileSync(OUT, body);
console.log(`wrote ${OUT}: ${reachable.size} messages for ${Object.keys(roots).length} kinds`);
