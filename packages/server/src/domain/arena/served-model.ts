/**
 * Whether the model a provider says it served (the `model` field of its stream) is another one than
 * the catalogue asked for: a router that fell back to a cheaper model, a provider serving another
 * size or quantisation under the same route. Providers name a model in many ways for the same
 * weights, so only a difference beyond these counts:
 * - case, and a vendor prefix on either side (`mistralai/mistral-small` is `mistral-small`);
 * - an alias the provider resolves to a dated or numbered release (`…-latest` → `…-2411`,
 *   `gpt-4o` → `gpt-4o-2024-08-06`, `claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`);
 * - a routing or precision tag after the name (`:free`, `:nitro`, `@fp8`, `-fp8`, `-bf16`).
 * `gpt-4o` answered as `gpt-4o-mini-2024-07-18` is another model: `-mini` is not a release suffix.
 */
const RELEASE_SUFFIX =
  /^(?:[-_.@:](?:\d{4}-?\d{2}-?\d{2}|\d{2,4}|v?\d+(?:\.\d+)*|latest|preview|free|nitro|beta|fp8|fp16|bf16|int4|int8|awq|gptq))+$/;

const bare = (name: string) => {
  const lower = name.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf('/') + 1);
};

/** True when `served` names another model than `expected`; false when the provider said nothing. */
export function servedModelDiffers(expected: string, served: string | undefined | null): boolean {
  if (!served) return false;
  const wanted = bare(expected).replace(/[-_.:](?:latest)$/, '');
  const got = bare(served);
  if (got === wanted || bare(expected) === got) return false;
  if (got.startsWith(wanted)) return !RELEASE_SUFFIX.test(got.slice(wanted.length));
  // The catalogue may pin a release the provider reports as its alias.
  if (wanted.startsWith(got)) return !RELEASE_SUFFIX.test(wanted.slice(got.length));
  return true;
}
