import fc from 'fast-check';
import { depositRoundingMicros } from './depositRounding';

describe('depositRoundingMicros', () => {
  it('exact venues keep nothing back', () => {
    expect(depositRoundingMicros('exact', 1_000_000n, 900_000n)).toBe(0n);
  });

  it("bounds klend's shortfall (floored receipts, their liquidity rounded up) at any rate", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 13n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 9n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 10n }),
        (asked, liquidity, supply) => {
          // rate = liquidity / supply (≥ 1 / 1000 here): klend's conversions, exactly.
          const minted = (asked * supply) / liquidity;
          fc.pre(minted > 0n);
          const taken = (minted * liquidity + supply - 1n) / supply;
          expect(taken).toBeLessThanOrEqual(asked);
          expect(asked - taken).toBeLessThanOrEqual(
            depositRoundingMicros('receipt', taken, minted),
          );
        },
      ),
    );
  });

  it('a deposit that kept a whole receipt back is beyond it', () => {
    // 2 micros a receipt: 3 receipts take 6; asking 8 kept 2 back, one receipt's worth.
    expect(depositRoundingMicros('receipt', 6n, 3n)).toBe(1n);
  });
});
