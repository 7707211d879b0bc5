import { fr as consoleShellFr } from './console/fr';
import { en as consoleShellEn } from './console/en';
import { da as consoleShellDa } from './console/da';
import { sv as consoleShellSv } from './console/sv';
import { lt as consoleShellLt } from './console/lt';
import { fr as consoleReviewFr } from './console-review/fr';
import { en as consoleReviewEn } from './console-review/en';
import { da as consoleReviewDa } from './console-review/da';
import { sv as consoleReviewSv } from './console-review/sv';
import { lt as consoleReviewLt } from './console-review/lt';
import { fr as consoleModelsFr } from './console-models/fr';
import { en as consoleModelsEn } from './console-models/en';
import { da as consoleModelsDa } from './console-models/da';
import { sv as consoleModelsSv } from './console-models/sv';
import { lt as consoleModelsLt } from './console-models/lt';
import { fr as consoleContentFr } from './console-content/fr';
import { en as consoleContentEn } from './console-content/en';
import { da as consoleContentDa } from './console-content/da';
import { sv as consoleContentSv } from './console-content/sv';
import { lt as consoleContentLt } from './console-content/lt';
import { fr as consolePublicationFr } from './console-publication/fr';
import { en as consolePublicationEn } from './console-publication/en';
import { da as consolePublicationDa } from './console-publication/da';
import { sv as consolePublicationSv } from './console-publication/sv';
import { lt as consolePublicationLt } from './console-publication/lt';
import { fr as consoleActivityFr } from './console-activity/fr';
import { en as consoleActivityEn } from './console-activity/en';
import { da as consoleActivityDa } from './console-activity/da';
import { sv as consoleActivitySv } from './console-activity/sv';
import { lt as consoleActivityLt } from './console-activity/lt';
import { fr as consoleInfluenceFr } from './console-influence/fr';
import { en as consoleInfluenceEn } from './console-influence/en';
import { da as consoleInfluenceDa } from './console-influence/da';
import { sv as consoleInfluenceSv } from './console-influence/sv';
import { lt as consoleInfluenceLt } from './console-influence/lt';

/**
 * The console's messages (routes/admin), one object per language joining its areas' files. Kept out of
 * the main catalogues: the arena's visitors never download them; the console's layout loads them
 * (index.svelte.ts `extend`) before it renders.
 */
export type ConsoleMessages = typeof consoleShellFr &
  typeof consoleReviewFr &
  typeof consoleModelsFr &
  typeof consoleContentFr &
  typeof consolePublicationFr &
  typeof consoleActivityFr &
  typeof consoleInfluenceFr;
export type ConsoleMessageKey = keyof ConsoleMessages;

export const CONSOLE_MESSAGES: Record<'fr' | 'en' | 'da' | 'sv' | 'lt', Record<ConsoleMessageKey, string>> = {
  fr: {
    ...consoleShellFr,
    ...consoleReviewFr,
    ...consoleModelsFr,
    ...consoleContentFr,
    ...consolePublicationFr,
    ...consoleActivityFr,
    ...consoleInfluenceFr,
  },
  en: {
    ...consoleShellEn,
    ...consoleReviewEn,
    ...consoleModelsEn,
    ...consoleContentEn,
    ...consolePublicationEn,
    ...consoleActivityEn,
    ...consoleInfluenceEn,
  },
  da: {
    ...consoleShellDa,
    ...consoleReviewDa,
    ...consoleModelsDa,
    ...consoleContentDa,
    ...consolePublicationDa,
    ...consoleActivityDa,
    ...consoleInfluenceDa,
  },
  sv: {
    ...consoleShellSv,
    ...consoleReviewSv,
    ...consoleModelsSv,
    ...consoleContentSv,
    ...consolePublicationSv,
    ...consoleActivitySv,
    ...consoleInfluenceSv,
  },
  lt: {
    ...consoleShellLt,
    ...consoleReviewLt,
    ...consoleModelsLt,
    ...consoleContentLt,
    ...consolePublicationLt,
    ...consoleActivityLt,
    ...consoleInfluenceLt,
  },
};
