// How a request's body is decoded, as its ?fieldValidation asks: a field the type does not have
// (or one the JSON named twice) is dropped with a warning (Warn, the API server's default), dropped
// quietly (Ignore), or refuses the request (Strict). Built-in kinds and custom resources alike.

/** ?fieldValidation (Warn when not given, as the API server). */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export interface DecodingContext {
  mode: FieldValidation;
  /** Where `Warn` puts its messages (the HTTP layer sends them as Warning headers). */
  warnings: string[] | undefined;
  /** Fields the request's JSON named twice (`spec.replicas`): refused or warned about as unknown ones are. */
  duplicates?: readonly string[];
  /** Where the body names its fields, so unknown and repeated ones are listed as Go's decoder meets them. */
  fieldOrder?: FieldOrder;
}

/** Offsets in a JSON body of a field's first naming and of its second (a repeated field); undefined when not named so. */
export interface FieldOrder {
  firstNamed(field: string): number | undefined;
  namedAgain(field: string): number | undefined;
}
