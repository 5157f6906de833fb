import type { Opportunity } from '@yieldrouter/schemas';
import { statsOf } from './peerDocuments';

// Sums and ranges over known values only: an unknown TVL or APY is never counted as zero.
const entry = (fields: Partial<Opportunity>) =>
  ({ ready: true, tvlUsdMicros: null, grossApyBps: null, ...fields }) as Opportunity;

describe('statsOf', () => {
  it('sums known TVLs and ranges known APYs, skipping nulls', () => {
    expect(
      statsOf([
        entry({ tvlUsdMicros: '5000000', grossApyBps: 700 }),
        entry({ ready: false, grossApyBps: 300 }),
        entry({ tvlUsdMicros: '7', grossApyBps: 500 }),
        entry({ grossApyBps: 900 }),
        entry({}),
      ]),
    ).toEqual({
      opportunities: 5,
      ready: 4,
      tvlUsdMicros: '5000007',
      tvlKnown: 2,
      // 300, 500, 700, 900: the lower middle value.
      grossApy: { minBps: 300, medianBps: 500, maxBps: 900, known: 4 },
    });
  });

  it('answers null, not zero, when nothing is known', () => {
    expect(statsOf([entry({}), entry({ ready: false })])).toEqual({
      opportunities: 2,
      ready: 1,
      tvlUsdMicros: null,
      tvlKnown: 0,
      grossApy: { minBps: null, medianBps: null, maxBps: null, known: 0 },
    });
    expect(statsOf([]).grossApy.medianBps).toBeNull();
  });
});
