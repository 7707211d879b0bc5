import { sitePageNameSchema } from '@agora/contract';
import type { ParamMatcher } from '@sveltejs/kit';

/** The pages whose text the operator writes: /methodology, /terms, /privacy, /legal, /accessibility. */
export const match = ((param: string) => sitePageNameSchema.safeParse(param).success) satisfies ParamMatcher;
