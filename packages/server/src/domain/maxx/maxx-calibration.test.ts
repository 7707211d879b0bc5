import { describe, expect, it } from 'vitest';
import { agreementOf, dislikeSidePreference, judgeSidePreference, voteSidePreference, wilsonInterval } from './maxx-calibration';

describe('the judge against the visitors', () => {
  it('reads a vote and a dislike as a preference between the sides', () => {
    expect(voteSidePreference('a')).toBe('a');
    expect(voteSidePreference('b')).toBe('b');
    expect(voteSidePreference('tie')).toBe('tie');
    expect(voteSidePreference('both_bad')).toBe('tie');
    expect(dislikeSidePreference('b', false)).toBe('a');
    expect(dislikeSidePreference('a', false)).toBe('b');
    expect(dislikeSidePreference('a', true)).toBe('tie');
  });

  it('takes a side only when both orders do, and calls opposite orders inconsistent', () => {
    expect(judgeSidePreference({ aFirst: 'a', bFirst: 'a' })).toBe('a');
    expect(judgeSidePreference({ aFirst: 'b', bFirst: 'b' })).toBe('b');
    expect(judgeSidePreference({ aFirst: 'a', bFirst: 'b' })).toBe('inconsistent');
    expect(judgeSidePreference({ aFirst: 'a', bFirst: 'tie' })).toBe('tie');
    expect(judgeSidePreference({ aFirst: 'tie', bFirst: 'tie' })).toBe('tie');
  });

  it('counts agreement, an inconsistent judge as disagreeing, and leaves unusable answers out', () => {
    expect(
      agreementOf([
        { human: 'a', judge: 'a' },
        { human: 'tie', judge: 'tie' },
        { human: 'a', judge: 'inconsistent' },
        { human: 'b', judge: 'a' },
        { human: 'b', judge: null },
      ]),
    ).toMatchObject({ pairs: 4, agreed: 2, inconsistent: 1, rate: 0.5 });
    expect(agreementOf([{ human: 'a', judge: null }])).toEqual({ pairs: 0, agreed: 0, inconsistent: 0, rate: null, low: null, high: null });
  });

  it('gives the Wilson score interval of reference values (statsmodels proportion_confint, method="wilson")', () => {
    const close = ([low, high]: [number, number], [expectedLow, expectedHigh]: [number, number]) => {
      expect(low).toBeCloseTo(expectedLow, 4);
      expect(high).toBeCloseTo(expectedHigh, 4);
    };
    close(wilsonInterval(8, 10), [0.490155, 0.943318]);
    close(wilsonInterval(0, 10), [0, 0.277533]);
    close(wilsonInterval(10, 10), [0.722467, 1]);
    close(wilsonInterval(50, 100), [0.403832, 0.596168]);
    close(wilsonInterval(1, 4), [0.045587, 0.699358]);
  });
});
