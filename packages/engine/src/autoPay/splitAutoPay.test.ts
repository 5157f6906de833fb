import fc from 'fast-check';
import { poolStanding, splitAutoPay } from './splitAutoPay';

const payees = [
  { payeeId: 'a', address: 'A', weightBps: 6667 },
  { payeeId: 'b', address: 'B', weightBps: 3333 },
];
const split = (
  availableCentimicros: bigint,
  options: { dust?: bigint; cap?: bigint | null; paid?: [string, bigint][] } = {},
) =>
  splitAutoPay({
    availableCentimicros,
    payees,
    dustMicros: options.dust ?? 0n,
    maxPerPayeePerDayMicros: options.cap ?? null,
    paidToday: new Map(options.paid ?? []),
  });

describe('splitAutoPay', () => {
  it('pays floor(net × percentage / 100 × weightBps / 10000) per payee, remainder kept', () => {
    // net 150 micros at 1 %: 1.5 micros payable; 6667 bps of it is 1.00005 → 1, 3333 → 0.
    const result = split(150n * 1n);
    expect(result.payouts.map((payout) => payout.amountMicros)).toEqual([1n, 0n]);
    expect(result.payouts[1]?.skipped).toBe('dust');
    expect([result.amountMicros, result.remainderMicros]).toEqual([1n, 0n]);
    // 1 234 567 micros at 37 %: exact per payee.
    const big = split(1_234_567n * 37n);
    expect(big.payouts.map((payout) => payout.amountMicros)).toEqual([
      (1_234_567n * 37n * 6667n) / 1_000_000n,
      (1_234_567n * 37n * 3333n) / 1_000_000n,
    ]);
    expect(big.amountMicros + big.remainderMicros).toBe((1_234_567n * 37n) / 100n);
  });

  it('skips a payee under dust and trims one to its daily cap (it stays payable)', () => {
    const dusty = split(10_000n * 100n, { dust: 3_400n });
    expect(dusty.payouts.map((payout) => [payout.amountMicros, payout.skipped])).toEqual([
      [6_667n, null],
      [0n, 'dust'],
    ]);
    expect(dusty.remainderMicros).toBe(3_333n);
    const capped = split(10_000n * 100n, { cap: 5_000n, paid: [['B', 5_000n]] });
    expect(capped.payouts.map((payout) => [payout.amountMicros, payout.skipped])).toEqual([
      [5_000n, null],
      [0n, 'daily_cap'],
    ]);
    expect(capped.remainderMicros).toBe(5_000n);
  });

  it('never pays more than the pool, whatever the weights (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 10 }),
        (available, weights) => {
          const result = splitAutoPay({
            availableCentimicros: available,
            payees: weights.map((weightBps, index) => ({
              payeeId: `p${index}`,
              address: `P${index}`,
              weightBps,
            })),
            dustMicros: 0n,
            maxPerPayeePerDayMicros: null,
            paidToday: new Map(),
          });
          const total = BigInt(weights.reduce((sum, weight) => sum + weight, 0));
          // With weights summing to 10000 the remainder is the rounding only (< one micro each).
          expect(result.amountMicros).toBe(
            result.payouts.reduce((sum, payout) => sum + payout.amountMicros, 0n),
          );
          if (total === 10_000n) {
            expect(result.remainderMicros >= 0n).toBe(true);
            expect(result.remainderMicros < BigInt(weights.length)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('poolStanding', () => {
  it('headroom is what the position holds above principal, by the books or the chain if lower', () => {
    const pool = {
      accruedCentimicros: 2_000n * 50n,
      committedMicros: 300n,
      stakedMicros: 12_000n,
      principalMicros: 10_000n,
      openWithdrawalsMicros: 500n,
    };
    expect(poolStanding(pool)).toEqual({
      availableCentimicros: 70_000n,
      payableMicros: 700n,
      headroomMicros: 1_500n,
    });
    expect(poolStanding(pool, 10_400n).headroomMicros).toBe(0n);
  });
});
