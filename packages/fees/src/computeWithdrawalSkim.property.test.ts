import fc from 'fast-check';
import { computeHarvestFees } from './computeHarvestFees';
import {
  computePositionClaim,
  computeWithdrawalSkim,
  grossUpWithdrawal,
} from './computeWithdrawalSkim';
import { FeeError } from './errors';
import { defaultFeeSchedule } from './feeSchedule';

// Issue #46: the skim leg of a withdrawal where the owner holds receipts (Sui, plain EVM venues),
// and the gross-up that makes a partial withdrawal of X pay the owner X.

const RUNS = { numRuns: 200 };
const position = fc.bigInt({ min: 1n, max: 1n << 48n }).chain((value) =>
  fc.record({
    positionValueMicros: fc.constant(value),
    claimMicros: fc.bigInt({ min: 0n, max: value }),
  }),
);
const withGross = position.chain((p) =>
  fc.record({
    positionValueMicros: fc.constant(p.positionValueMicros),
    claimMicros: fc.constant(p.claimMicros),
    grossMicros: fc.bigInt({ min: 0n, max: p.positionValueMicros }),
  }),
);
const withNet = position
  .filter((p) => p.claimMicros < p.positionValueMicros)
  .chain((p) =>
    fc.record({
      positionValueMicros: fc.constant(p.positionValueMicros),
      claimMicros: fc.constant(p.claimMicros),
      netMicros: fc.bigInt({ min: 0n, max: p.positionValueMicros - p.claimMicros }),
    }),
  );

describe('computeWithdrawalSkim', () => {
  it('skim + net == gross; the skim is the claim pro rata, rounded down', () => {
    fc.assert(
      fc.property(withGross, ({ grossMicros, positionValueMicros, claimMicros }) => {
        const out = computeWithdrawalSkim({ grossMicros, positionValueMicros, claimMicros });
        expect(out.skimMicros + out.netMicros).toBe(grossMicros);
        expect(out.skimMicros * positionValueMicros <= claimMicros * grossMicros).toBe(true);
        expect((out.skimMicros + 1n) * positionValueMicros > claimMicros * grossMicros).toBe(true);
      }),
      RUNS,
    );
  });

  it('refuses more than the position, or a claim above its value, naming the field', () => {
    const refused = (call: () => unknown, field: string) => {
      try {
        call();
        throw new Error('not refused');
      } catch (error) {
        expect(error).toBeInstanceOf(FeeError);
        expect((error as FeeError).field).toBe(field);
      }
    };
    refused(
      () => computeWithdrawalSkim({ grossMicros: 2n, positionValueMicros: 1n, claimMicros: 0n }),
      'grossMicros',
    );
    refused(
      () => computeWithdrawalSkim({ grossMicros: 1n, positionValueMicros: 1n, claimMicros: 2n }),
      'claimMicros',
    );
    refused(
      () => grossUpWithdrawal({ netMicros: 10n, positionValueMicros: 10n, claimMicros: 1n }),
      'netMicros',
    );
  });
});

describe('grossUpWithdrawal', () => {
  it('the owner receives exactly what was asked, from the smallest gross that does it', () => {
    fc.assert(
      fc.property(withNet, ({ netMicros, positionValueMicros, claimMicros }) => {
        const out = grossUpWithdrawal({ netMicros, positionValueMicros, claimMicros });
        expect(out.netMicros).toBe(netMicros);
        expect(out.skimMicros + out.netMicros).toBe(out.grossMicros);
        expect(out.grossMicros <= positionValueMicros).toBe(true);
        expect(out).toEqual(
          computeWithdrawalSkim({ grossMicros: out.grossMicros, positionValueMicros, claimMicros }),
        );
        if (out.grossMicros > 0n) {
          const less = computeWithdrawalSkim({
            grossMicros: out.grossMicros - 1n,
            positionValueMicros,
            claimMicros,
          });
          expect(less.netMicros < netMicros).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

// 44 USDC worth (40 in, 4 of yield harvested), 0.2 USDC of it the protocol's.
const POSITION = { positionValueMicros: 44_000_000n, claimMicros: 200_000n };

describe('examples', () => {
  it.each([
    // A full exit pays the whole claim.
    [
      'a full exit',
      computeWithdrawalSkim({ ...POSITION, grossMicros: 44_000_000n }),
      44_000_000n,
      200_000n,
      43_800_000n,
    ],
    // 5 USDC asked: the venue pays it grossed up, the owner receives exactly 5 USDC.
    [
      '5 USDC asked',
      grossUpWithdrawal({ ...POSITION, netMicros: 5_000_000n }),
      5_022_831n,
      22_831n,
      5_000_000n,
    ],
    // One micro less than the whole position already nets 43.8 USDC: what is left (1 micro)
    // carries 1 micro of claim. An exit of everything asks for the value itself instead.
    [
      'the net of a full exit',
      grossUpWithdrawal({ ...POSITION, netMicros: 43_800_000n }),
      43_999_999n,
      199_999n,
      43_800_000n,
    ],
  ])('%s', (_, out, grossMicros, skimMicros, netMicros) => {
    expect(out).toEqual({ grossMicros, skimMicros, netMicros });
  });
});

describe('computePositionClaim: the profit fee takes the same path, both ways', () => {
  const on = {
    ...defaultFeeSchedule,
    harvestProfitFee: { ...defaultFeeSchedule.harvestProfitFee, enabled: true },
  };

  it('off (the default): retained + the skim on unmarked yield', () => {
    const claim = computePositionClaim({
      valueMicros: 45_000_000n,
      markMicros: 44_000_000n,
      feesRetainedMicros: 200_000n,
    });
    expect(claim).toEqual({
      unmarkedYieldMicros: 1_000_000n,
      unmarkedFeeMicros: 50_000n,
      claimMicros: 250_000n,
    });
  });

  it('on: 1% of what the skim leaves, capped at 10 USD, joins the claim', () => {
    const claimOn = (valueMicros: bigint, markMicros: bigint, feesRetainedMicros: bigint) =>
      computePositionClaim({ valueMicros, markMicros, feesRetainedMicros, schedule: on });
    // 1 USDC of yield: 50_000 skim, then 1% of 950_000 = 9_500.
    const claim = claimOn(45_000_000n, 44_000_000n, 200_000n);
    expect(claim.unmarkedFeeMicros).toBe(59_500n);
    expect(claim.claimMicros).toBe(259_500n);
    // 2000 USDC of yield: 100 USDC skim, the profit fee capped at 10 USDC.
    expect(claimOn(3_000_000_000n, 1_000_000_000n, 0n).unmarkedFeeMicros).toBe(110_000_000n);
  });

  it('equals what a harvest would book, and never exceeds the value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1n << 48n }),
        fc.bigInt({ min: 0n, max: 1n << 48n }),
        fc.bigInt({ min: 0n, max: 1n << 40n }),
        fc.boolean(),
        (valueMicros, markMicros, feesRetainedMicros, enabled) => {
          const schedule = enabled ? on : defaultFeeSchedule;
          const claim = computePositionClaim({
            valueMicros,
            markMicros,
            feesRetainedMicros,
            schedule,
          });
          const harvest = computeHarvestFees({
            grossYieldMicros: claim.unmarkedYieldMicros,
            schedule,
          });
          expect(claim.unmarkedFeeMicros).toBe(harvest.protocolFeeMicros + harvest.profitFeeMicros);
          expect(claim.claimMicros <= valueMicros).toBe(true);
          expect(claim.claimMicros <= feesRetainedMicros + claim.unmarkedFeeMicros).toBe(true);
        },
      ),
      RUNS,
    );
  });
});
