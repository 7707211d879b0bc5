import type { ModelCard } from '@agora/contract';
import { describe, expect, it } from 'vitest';
import { checkVsModels, modelsOfVsLink } from './vs-link';

const card = (id: string, status: string, available: boolean) => ({ id, status, available }) as unknown as ModelCard;

describe('?vs= links', () => {
  it('names two models at most, trimmed, without blanks or repeats', () => {
    expect(modelsOfVsLink(null)).toEqual([]);
    expect(modelsOfVsLink('')).toEqual([]);
    expect(modelsOfVsLink(' a , ,a,b,c')).toEqual(['a', 'b']);
    expect(modelsOfVsLink('solo')).toEqual(['solo']);
  });

  it('keeps the models this arena can draw and names the others', () => {
    const models = [card('on', 'enabled', true), card('off', 'disabled', true), card('away', 'enabled', false)];
    expect(checkVsModels(['on', 'nope'], models)).toEqual({ drawable: ['on'], unknown: ['nope'] });
    expect(checkVsModels(['off', 'away'], models)).toEqual({ drawable: [], unknown: ['off', 'away'] });
  });
});
