/**
 * The server's door to the personal-data rules: one rule set, in `packages/privacy`, shared with the
 * arena page's warning before sending (docs/privacy.md). Its tests live here, beside the server's
 * fixtures and generators.
 */
export * from '@agora/privacy';
