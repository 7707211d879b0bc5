import { describe, expect, it } from 'vitest';
import { itKeepsTheFrenchKeys } from '../area-catalogue-checks';
import { CAPABILITY_LABELS } from '@agora/contract';
import { da } from './da';
import { en } from './en';
import { fr } from './fr';
import { lt } from './lt';
import { sv } from './sv';

describe('the capabilities messages', () => {
  itKeepsTheFrenchKeys(fr, { en, da, sv, lt });
});

describe('the capability labels', () => {
  it('have a name in French for every label of the contract', () => {
    for (const label of CAPABILITY_LABELS) expect(Object.keys(fr)).toContain(`capability.${label}`);
  });
});
