import fc from 'fast-check';
import { depositRoundingMicros, withdrawRoundingMicros } from './depositRounding';

/** `check` at any amount and rate (liquidity / supply, ≥ 1 / 1000 here): klend's conversions. */
const atAnyRate = (check: (asked: bigint, liquidity: bigint, supply: bigint) => void) =>
  fc.assert(
    fc.property(
      fc.bigInt({ min: 1n, max: 10n ** 13n }),
      fc.bigInt({ min: 10n ** 6n, max: 10n ** 9n }),
      fc.bigInt({ min: 10n ** 6n, max: 10n ** 10n }),
      check,
    ),
  );

describe('depositRoundingMicros', () => {
  it('exact venues keep nothing back', () => {
    expect(depositRoundingMicros('exact', 1_000_000n, 900_000n)).toBe(0n);
  });

  it("bounds klend's shortfall (floored receipts, their liquidity rounded up) at any rate", () => {
    atAnyRate((asked, liquidity, supply) => {
      const minted = (asked * supply) / liquidity;
      fc.pre(minted > 0n);
      const taken = (minted * liquidity + supply - 1n) / supply;
      expect(taken).toBeLessThanOrEqual(asked);
      expect(asked - taken).toBeLessThanOrEqual(depositRoundingMicros('receipt', taken, minted));
    });
  });

  it('a deposit that kept a whole receipt back is beyond it', () => {
    // 2 micros a receipt: 3 receipts take 6; asking 8 kept 2 back, one receipt's worth.
    expect(depositRoundingMicros('receipt', 6n, 3n)).toBe(1n);
  });
});

describe('withdrawRoundingMicros', () => {
  it('exact venues pay nothing beyond the amount', () => {
    expect(withdrawRoundingMicros('exact', 1_000_001n, 900_000n)).toBe(0n);
    expect(withdrawRoundingMicros('receipt', 1_000_001n, 0n)).toBe(0n);
  });

  it("bounds klend's excess (receipts burned rounded up, their liquidity rounded down) at any rate", () => {
    atAnyRate((asked, liquidity, supply) => {
      // The plan's ceil, then klend's `collateral_to_liquidity` (floor).
      const burned = (asked * supply + liquidity - 1n) / liquidity;
      const received = (burned * liquidity) / supply;
      expect(received).toBeGreaterThanOrEqual(asked);
      expect(received - asked).toBeLessThanOrEqual(
        withdrawRoundingMicros('receipt', received, burned),
      );
    });
  });

  it("a withdrawal that paid more than a receipt's worth beyond the amount is beyond it", () => {
    // 7 micros for 3 receipts: each worth under 2.34, so at most 2 beyond; asking 4 paid 3 more.
    expect(withdrawRoundingMicros('receipt', 7n, 3n)).toBe(2n);
  });
});
