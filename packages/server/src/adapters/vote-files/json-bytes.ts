/** The bytes of JSON's syntax that the vote files' byte readers look for (UTF-8, all ASCII). */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN = 0x7b;
export const CLOSE = 0x7d;
export const NEWLINE = 0x0a;
export const ZERO = 0x30;
export const NINE = 0x39;
