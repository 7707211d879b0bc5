/**
 * Whether the model a provider says it served (the `model` field of its stream) is another one than
 * the catalogue asked for: a router that fell back to a cheaper model, a provider serving another
 * size, version or quantisation under the same route. Both names are reduced to the tokens of the
 * model's identity, and those must be the same set:
 * - case, a vendor prefix (`mistralai/`) and a routing tag after `:` (`:free`, `:nitro`, `:cerebras`)
 *   do not count;
 * - `.` and `-` between digits are one separator (`claude-sonnet-4.5` is `claude-sonnet-4-5`), and
 *   token order does not count (OpenRouter's `claude-4-sonnet` is `claude-sonnet-4`);
 * - a release date (`-20250929`, `-2024-08-06`, `-2411`, `-0528`) and `-latest` do not count, since
 *   providers resolve aliases to dated releases; when both names carry a date, the dates must match.
 * Everything else counts: `gpt-4o` answered as `gpt-4o-mini-…`, `gpt-4` as `gpt-4.1`, `o1` as
 * `o1-preview`, a quantisation tag (`-awq`, `@int4`, `-fp8`). Known false alarm: providers whose
 * dated names drop the version (`mistral-medium-3.1` served as `mistral-medium-2508`): write the
 * dated name in the catalogue.
 */
const DATE = /^(?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$/;

interface Identity {
  tokens: string[];
  date: string | null;
}

function identity(name: string): Identity {
  let bare = name.trim().toLowerCase();
  bare = bare.slice(bare.lastIndexOf('/') + 1);
  const routing = bare.indexOf(':');
  if (routing >= 0) bare = bare.slice(0, routing);
  bare = bare.replace(/(\d)\.(?=\d)/g, '$1-').replace(/@/g, '-');
  // A full date written with dashes is one token.
  bare = bare.replace(/(?:^|-)(\d{4})-(\d{2})-(\d{2})(?=-|$)/g, '-$1$2$3');
  const tokens = bare.split(/[-_\s]+/).filter((token) => token !== '' && token !== 'latest');
  const last = tokens.at(-1);
  // A trailing 4-digit token is a date (YYMM, MMDD) only after a name, never the name's own number.
  const date = last !== undefined && tokens.length > 1 && DATE.test(last) ? last : null;
  return { tokens: (date === null ? tokens : tokens.slice(0, -1)).sort(), date };
}

/** True when `served` names another model than `expected`; false when the provider said nothing. */
export function servedModelDiffers(expected: string, served: string | undefined | null): boolean {
  if (!served) return false;
  const wanted = identity(expected);
  const got = identity(served);
  if (wanted.tokens.join(' ') !== got.tokens.join(' ')) return true;
  return wanted.date !== null && got.date !== null && wanted.date !== got.date;
}
