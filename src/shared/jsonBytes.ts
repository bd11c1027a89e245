// The bytes that give JSON text its structure, for code that reads it without parsing it (the list
// decoder, the managedFields cut): every one is ASCII, so none occurs inside a multi-byte UTF-8
// character.

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
