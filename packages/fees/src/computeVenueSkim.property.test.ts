import fc from 'fast-check';
import { computeHarvestFees } from './computeHarvestFees';
import { computeVenueSkim } from './computeVenueSkim';
import { computeYieldSkim } from './computeYieldSkim';
import { FeeError } from './errors';
import {
  MAX_MICROS,
  MAX_YIELD_SKIM_BPS,
  assertFeeSchedule,
  defaultFeeSchedule,
} from './feeSchedule';

// The on-chain skim (issue #46): the rule the Solana router enforces in withdraw_from_venue, and
// the registry maximum every chain refuses above.

const amount = fc.bigInt({ min: 0n, max: 1n << 52n });
const skimBps = fc.integer({ min: 0, max: MAX_YIELD_SKIM_BPS });

const position = fc
  .tuple(amount, fc.bigInt({ min: 1n, max: 1n << 52n }), amount)
  .chain(([principalMicros, sharesHeld, receivedMicros]) =>
    fc.record({
      principalMicros: fc.constant(principalMicros),
      sharesHeld: fc.constant(sharesHeld),
      sharesBurnt: fc.bigInt({ min: 0n, max: sharesHeld }),
      receivedMicros: fc.constant(receivedMicros),
      skimBps,
    }),
  );

describe('computeVenueSkim (property tests)', () => {
  it('skim + net == received; the skim rounds down and is at most the yield × 1000 bps', () => {
    fc.assert(
      fc.property(position, (input) => {
        const out = computeVenueSkim(input);
        expect(out.skimMicros + out.netMicros).toBe(input.receivedMicros);
        expect(out.skimMicros * 10_000n <= out.yieldMicros * BigInt(input.skimBps)).toBe(true);
        expect((out.skimMicros + 1n) * 10_000n > out.yieldMicros * BigInt(input.skimBps)).toBe(
          true,
        );
        expect(out.skimMicros * 10n <= out.yieldMicros).toBe(true);
        expect(out.yieldMicros <= input.receivedMicros).toBe(true);
      }),
    );
  });

  it("the burnt shares' principal rounds up (the owner's favour) and never exceeds what is left", () => {
    fc.assert(
      fc.property(position, (input) => {
        const out = computeVenueSkim(input);
        const exact = input.principalMicros * input.sharesBurnt;
        expect(out.principalPartMicros * input.sharesHeld >= exact).toBe(true);
        expect((out.principalPartMicros - 1n) * input.sharesHeld < exact || exact === 0n).toBe(
          true,
        );
        expect(out.principalLeftMicros + out.principalPartMicros).toBe(input.principalMicros);
        expect(out.principalLeftMicros >= 0n).toBe(true);
        expect(out.sharesLeft + input.sharesBurnt).toBe(input.sharesHeld);
      }),
    );
  });

  it('a full exit in slices never skims more than one exit at once would', () => {
    fc.assert(
      fc.property(
        amount,
        fc.bigInt({ min: 1n, max: 1n << 40n }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 9_999 }),
        (principal, shares, gainBps, splitBps) => {
          // The venue pays at one price: received = shares × (1 + gain) per principal unit.
          const value = (burnt: bigint) =>
            (principal * burnt * (10_000n + BigInt(gainBps))) / (shares * 10_000n);
          const once = computeVenueSkim({
            principalMicros: principal,
            sharesHeld: shares,
            sharesBurnt: shares,
            receivedMicros: value(shares),
          });
          const first = (shares * BigInt(splitBps)) / 10_000n;
          const a = computeVenueSkim({
            principalMicros: principal,
            sharesHeld: shares,
            sharesBurnt: first,
            receivedMicros: value(first),
          });
          const b = computeVenueSkim({
            principalMicros: a.principalLeftMicros,
            sharesHeld: a.sharesLeft,
            sharesBurnt: a.sharesLeft,
            receivedMicros: value(shares) - value(first),
          });
          expect(a.skimMicros + b.skimMicros <= once.skimMicros + 1n).toBe(true);
          expect(a.principalLeftMicros - b.principalPartMicros).toBe(0n);
        },
      ),
    );
  });

  it('refuses burning more shares than recorded (the router refuses it too)', () => {
    expect(() =>
      computeVenueSkim({
        principalMicros: 1n,
        sharesHeld: 1n,
        sharesBurnt: 2n,
        receivedMicros: 1n,
      }),
    ).toThrow(expect.objectContaining({ field: 'sharesBurnt' }));
  });
});

describe('the registry maximum (1000 bps)', () => {
  it('computeYieldSkim and computeVenueSkim refuse a skim above it, naming skimBps', () => {
    fc.assert(
      fc.property(fc.integer({ min: MAX_YIELD_SKIM_BPS + 1, max: 10_000 }), (bps) => {
        expect(() => computeYieldSkim({ grossYieldMicros: 1_000_000n, skimBps: bps })).toThrow(
          FeeError,
        );
        expect(() =>
          computeVenueSkim({
            principalMicros: 0n,
            sharesHeld: 1n,
            sharesBurnt: 1n,
            receivedMicros: 1n,
            skimBps: bps,
          }),
        ).toThrow(expect.objectContaining({ field: 'skimBps' }));
      }),
    );
    expect(computeYieldSkim({ grossYieldMicros: MAX_MICROS, skimBps: 1000 }).skimMicros).toBe(
      MAX_MICROS / 10n,
    );
  });

  it('a schedule whose registry maximum or skim passes it is refused', () => {
    expect(() =>
      assertFeeSchedule({ ...defaultFeeSchedule, registryMaxYieldSkimBps: 1001 }),
    ).toThrow(expect.objectContaining({ field: 'registryMaxYieldSkimBps' }));
    expect(() =>
      computeHarvestFees({
        grossYieldMicros: 1n,
        schedule: { ...defaultFeeSchedule, yieldSkimBps: 1500 },
      }),
    ).toThrow(expect.objectContaining({ field: 'skimBps' }));
  });
});
