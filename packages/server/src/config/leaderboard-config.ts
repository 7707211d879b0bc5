import { z } from 'zod';

const booleanFlag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

/** The live leaderboard's variables (docs/configuration.md): its refreshes, what it counts, and the snapshot of its kept votes. */
export const leaderboardEnvironmentShape = {
  AGORA_LEADERBOARD_EVERY_VOTES: z.coerce.number().int().min(1).default(25),
  AGORA_LEADERBOARD_EVERY_S: z.coerce.number().positive().default(60),
  AGORA_LEADERBOARD_MIN_INTERVAL_S: z.coerce.number().min(0).default(5),
  AGORA_LEADERBOARD_REACTIONS: booleanFlag.default(false),
  AGORA_LEADERBOARD_CUSTOM_ON_MAIN: booleanFlag.default(false),
  AGORA_LEADERBOARD_PROMPT_DEDUP: booleanFlag.default(true),
  AGORA_LEADERBOARD_MIN_VOTES: z.coerce.number().int().min(1).default(30),
  /** The kept votes' snapshot is written again at most this often (minutes); 0: no snapshot (docs/operations.md#leaderboard-snapshot). */
  AGORA_LEADERBOARD_SNAPSHOT_MINUTES: z.coerce
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(10),
};
