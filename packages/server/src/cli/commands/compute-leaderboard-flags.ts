// `agora leaderboard`'s flags, in zod/mini rather than zod: the same checks and the same messages
// through zod's same core, but only the pieces used. The prebuilt command line bundles this file on
// its own (scripts/build-cli.mjs, STANDALONE): about 30 kB of JavaScript instead of the 670 kB of
// zod's core and locales that the other commands' schemas share, about 0.05 s of CPU less at every
// start of the command that ranks vote files. Import nothing here whose identity matters (classes
// checked with instanceof): the bundled copy is not the one the rest of the command line sees.
import * as z from 'zod/mini';
import { RANKING_VARIANT_NAMES as VARIANTS } from '../../domain/ranking/variants';

const wholeNumber = (message: string) => z.pipe(z.string().check(z.regex(/^\d+$/, message)), z.transform(Number));

export const leaderboardFlagsSchema = z
  .object({
    votes: z.optional(
      z.array(z.string().check(z.minLength(1, '--votes takes file paths'))).check(z.minLength(1, '--votes takes file paths')),
    ),
    style: z.optional(z.boolean()),
    variant: z.optional(z.enum(VARIANTS, { error: `--variant takes ${VARIANTS.join(', ')}` })),
    bootstrap: z.optional(wholeNumber('--bootstrap takes a whole number of rounds (0 = sandwich intervals)')),
    seed: z.optional(wholeNumber('--seed takes a whole number')),
    format: z.optional(z.enum(['json', 'csv', 'table'], { error: '--format takes json, csv or table' })),
    anchor: z.optional(
      z.pipe(
        z.string().check(z.regex(/^.+=-?\d+(\.\d+)?$/, '--anchor takes MODEL=RATING, e.g. mixtral-8x7b-instruct-v0.1=1114')),
        z.transform((text) => {
          const split = text.lastIndexOf('=');
          return { model: text.slice(0, split), rating: Number(text.slice(split + 1)) };
        }),
      ),
    ),
    styleRule: z.optional(z.enum(['fastchat', 'compar'], { error: '--style-rule takes fastchat or compar' })),
    includeFlagged: z.optional(z.boolean()),
    unit: z.optional(z.enum(['duel', 'turn'], { error: '--unit takes duel or turn' })),
  })
  .check(
    z.superRefine((flags, context) => {
      if (flags.style && flags.variant && !flags.variant.startsWith('style_')) {
        context.addIssue({
          code: 'custom',
          message: `--style conflicts with --variant ${flags.variant} (use style_fastchat or style_ridge)`,
        });
      }
    }),
  );

export type LeaderboardFlags = z.infer<typeof leaderboardFlagsSchema>;
