import type { KubeObject } from '../../shared/k8s.ts';
import type { JsonSchema } from '../crdSchema/jsonSchema.ts';
import { applySchemaDefaults } from '../crdSchema/defaulting.ts';
import { jsonEqual } from '../vocabulary/jsonEqual.ts';
import { Stored, mutableCopy } from './storedObject.ts';
import { storedEvent } from './watchEvent.ts';
import type { SimWatchEvent } from './types.ts';

// kube-apiserver decodes every custom resource it reads from etcd with its CRD's schema as it is
// now, defaults included: a default added to the CRD shows on objects stored before it, on every
// read (get, list, watch), without any write. What is stored stays as it was written.

const served = new WeakMap<object, { schema: JsonSchema; stored: Stored | undefined }>();
const defaulting = new WeakMap<JsonSchema, boolean>();

function hasDefaults(schema: JsonSchema): boolean {
  let known = defaulting.get(schema);
  if (known === undefined) defaulting.set(schema, (known = JSON.stringify(schema).includes('"default"')));
  return known;
}

/** The stored object as a read serves it: with `schema`'s defaults filled in (itself when they change nothing). */
export function readWithDefaults(stored: Stored, schema: JsonSchema | undefined): Stored {
  if (!schema || !hasDefaults(schema)) return stored;
  return defaulted(stored.object, schema) ?? stored;
}

/** A watch event as a read serves its object (bookmarks and errors as they are). */
export function eventWithDefaults(event: SimWatchEvent, schema: JsonSchema | undefined): SimWatchEvent {
  if (!schema || !hasDefaults(schema) || event.type === 'BOOKMARK' || event.type === 'ERROR') return event;
  const stored = defaulted(event.object, schema);
  return stored ? storedEvent(event.type, stored) : event;
}

/** `object` with the schema's defaults, or undefined when they change nothing (remembered per stored object and schema). */
function defaulted(object: Readonly<KubeObject>, schema: JsonSchema): Stored | undefined {
  const cached = served.get(object);
  if (cached && cached.schema === schema) return cached.stored;
  const copy = mutableCopy(object) as KubeObject;
  applySchemaDefaults(copy, schema);
  const stored = jsonEqual(copy, object) ? undefined : new Stored(copy, Number(object.metadata.resourceVersion ?? 0) || 0);
  served.set(object, { schema, stored });
  return stored;
}
