import { describe } from 'vitest';
import { itKeepsTheFrenchKeys } from '../area-catalogue-checks';
import { da } from './da';
import { en } from './en';
import { fr } from './fr';
import { lt } from './lt';
import { sv } from './sv';

describe('the model-profiles messages', () => {
  itKeepsTheFrenchKeys(fr, { en, da, sv, lt });
});
