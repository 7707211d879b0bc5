/** The language of each message of one complete turn. */
export interface TurnLanguages {
  prompt: string;
  a: string;
  b: string;
}
