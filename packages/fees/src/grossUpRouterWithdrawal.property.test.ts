import fc from 'fast-check';
import { computeVenueSkim } from './computeVenueSkim';
import { FeeError } from './errors';
import { MAX_YIELD_SKIM_BPS } from './feeSchedule';
import { grossUpRouterWithdrawal } from './grossUpRouterWithdrawal';

// Issue #46: a partial withdrawal through the Solana router is grossed up so the owner receives
// the amount asked, the router's skim on top.

const RUNS = { numRuns: 300 };
const position = fc
  .record({
    principalMicros: fc.bigInt({ min: 0n, max: 1n << 44n }),
    change: fc.bigInt({ min: -(1n << 40n), max: 1n << 42n }),
    skimBps: fc.integer({ min: 0, max: MAX_YIELD_SKIM_BPS }),
  })
  .map(({ principalMicros, change, skimBps }) => ({
    principalMicros,
    valueMicros: principalMicros + change < 1n ? 1n : principalMicros + change,
    skimBps,
  }));
const asked = position.chain((p) =>
  fc.record({
    netMicros: fc.bigInt({ min: 0n, max: p.valueMicros }),
    principalMicros: fc.constant(p.principalMicros),
    valueMicros: fc.constant(p.valueMicros),
    skimBps: fc.constant(p.skimBps),
  }),
);

describe('grossUpRouterWithdrawal', () => {
  it('the smallest gross whose net is the amount asked; skim + net == gross', () => {
    fc.assert(
      fc.property(asked, (p) => {
        const r = grossUpRouterWithdrawal(p);
        expect(r.skimMicros + r.netMicros).toBe(r.grossMicros);
        expect(r.grossMicros <= p.valueMicros).toBe(true);
        const everything = grossUpRouterWithdrawal({ ...p, netMicros: p.valueMicros });
        if (p.netMicros >= everything.netMicros) {
          expect(r.grossMicros).toBe(p.valueMicros);
          return;
        }
        expect(r.netMicros).toBe(p.netMicros);
        if (r.grossMicros > p.netMicros) {
          // One micro less would leave the owner short.
          const less = grossUpRouterWithdrawal({ ...p, netMicros: p.netMicros - 1n });
          expect(less.grossMicros < r.grossMicros).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("is the router's own rule where the receipts burnt are the gross's share of the value", () => {
    // 40 receipts worth 44 USDC on a principal of 40: burning 20 pays 22 (computeVenueSkim).
    const onChain = computeVenueSkim({
      principalMicros: 40_000_000n,
      sharesHeld: 40_000_000n,
      sharesBurnt: 20_000_000n,
      receivedMicros: 22_000_000n,
    });
    const planned = grossUpRouterWithdrawal({
      netMicros: onChain.netMicros,
      principalMicros: 40_000_000n,
      valueMicros: 44_000_000n,
    });
    // The same net, from the smallest gross that pays it (a micro less of yield, floored alike).
    expect(planned.netMicros).toBe(onChain.netMicros);
    expect(planned.grossMicros).toBe(21_999_999n);
    expect(planned.skimMicros).toBe(onChain.skimMicros - 1n);
  });

  it('no yield, no skim; refuses a skim above the registry maximum', () => {
    expect(
      grossUpRouterWithdrawal({ netMicros: 5n, principalMicros: 10n, valueMicros: 9n }),
    ).toEqual({ grossMicros: 5n, skimMicros: 0n, netMicros: 5n });
    expect(() =>
      grossUpRouterWithdrawal({
        netMicros: 5n,
        principalMicros: 10n,
        valueMicros: 20n,
        skimBps: 1001,
      }),
    ).toThrow(FeeError);
  });
});
