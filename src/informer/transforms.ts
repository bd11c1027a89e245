import type { KubeObject } from '../shared/k8s.ts';
import { dropManagedFieldsText } from './managedFieldsText.ts';

// Transforms for SharedInformerOptions.transform (client-go's SetTransform): applied once to each
// object from the server, before the cache stores it and handlers see it.

/**
 * A transform's counterpart on JSON text, for a backend that parses what the server sent: applied
 * to a list item's text (`inEvent` false) or a watch event's line (`inEvent` true: its `object`)
 * before parsing. It may leave the text as it is; the transform itself still runs on the parsed
 * object, so it must give the same result on an object whose text was already transformed.
 */
export type TextTransform = (json: string, inEvent: boolean) => string;

const textForms = new WeakMap<(obj: never) => unknown, TextTransform>();

/**
 * What a text form does when all it does is leave out one member of one of the object's members
 * (`metadata.managedFields`): a decoder that scans an object's bytes anyway can cut it there and
 * skip the text form.
 */
export interface MemberCut {
  readonly parent: string;
  readonly member: string;
}

const memberCuts = new WeakMap<TextTransform, MemberCut>();

/** Says that all `textForm` does is leave out `cut` (see MemberCut). */
export function declareMemberCut(textForm: TextTransform, cut: MemberCut): void {
  memberCuts.set(textForm, cut);
}

/** The member `textForm` leaves out, when that is all it does. */
export function memberCutOf(textForm: TextTransform | undefined): MemberCut | undefined {
  return textForm === undefined ? undefined : memberCuts.get(textForm);
}

/** The text form of `transform`, if it has one. */
export function textFormOf<T>(transform: ((obj: T) => T) | undefined): TextTransform | undefined {
  return transform === undefined ? undefined : textForms.get(transform as (obj: never) => unknown);
}

/**
 * Leaves out `metadata.managedFields`: on a Pod they are a third of its JSON, and nothing an
 * informer's views or most controllers read. The object is copied, not changed: a backend may share it.
 * Backends that parse JSON cut them out of the text first (see managedFieldsText.ts).
 */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  const metadata = obj.metadata;
  if (metadata?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...rest } = metadata;
  return { ...obj, metadata: rest };
}
textForms.set(dropManagedFields, dropManagedFieldsText);
declareMemberCut(dropManagedFieldsText, { parent: 'metadata', member: 'managedFields' });
