import fc from 'fast-check';
import { defaultFeeSchedule } from '@yieldrouter/fees';
import type { Chain } from '@yieldrouter/schemas';
import { checkGuardrails, netApyBps } from './checkGuardrails';
import type { GuardrailProposal, Guardrails } from './checkGuardrails';

const OPP = `svcop${'a'.repeat(24)}`;
const OTHER = `svcop${'b'.repeat(24)}`;
const NONE: Guardrails = {
  allowedChains: null,
  venueAllowlist: null,
  maxAllocationBps: {},
  maxPerOpportunityMicros: null,
  minNetApyBps: null,
};
const proposal: GuardrailProposal = {
  chain: 'solana',
  opportunityId: OPP,
  amountMicros: 4_000_000n,
  stakedInOpportunityMicros: 1_000_000n,
  stakedOnChainMicros: 6_000_000n,
  grossApyBps: 800,
};
const codes = (guardrails: Partial<Guardrails>, change: Partial<GuardrailProposal> = {}) =>
  checkGuardrails({ ...NONE, ...guardrails }, { ...proposal, ...change }).map((b) => b.code);

describe('checkGuardrails', () => {
  it('passes everything when the owner set no limit', () => {
    expect(codes({})).toEqual([]);
  });

  it('refuses a chain outside allowedChains and an opportunity outside the allowlist', () => {
    expect(codes({ allowedChains: ['sui'] })).toEqual(['guardrail_chain_not_allowed']);
    expect(codes({ allowedChains: ['sui', 'solana'] })).toEqual([]);
    expect(codes({ venueAllowlist: [OTHER] })).toEqual(['guardrail_venue_not_allowed']);
    expect(codes({ venueAllowlist: [OTHER, OPP] })).toEqual([]);
  });

  it('caps the staked amount per opportunity after the move, at the boundary', () => {
    // 1 staked + 4 entering = 5 after.
    expect(codes({ maxPerOpportunityMicros: 5_000_000n })).toEqual([]);
    expect(codes({ maxPerOpportunityMicros: 4_999_999n })).toEqual([
      'guardrail_max_per_opportunity',
    ]);
  });

  it('bounds the share of the chain after the move, counting what a rebalance takes out', () => {
    // After: 5 of 10 on the chain = 5000 bps.
    expect(codes({ maxAllocationBps: { [OPP]: 5000 } })).toEqual([]);
    expect(codes({ maxAllocationBps: { [OPP]: 4999 } })).toEqual(['guardrail_max_allocation']);
    // A rebalance moving 4 out of another opportunity: 5 of 6 after = 8333 bps.
    expect(
      codes({ maxAllocationBps: { [OPP]: 8333 } }, { leavingOnChainMicros: 4_000_000n }),
    ).toEqual(['guardrail_max_allocation']);
    expect(
      codes({ maxAllocationBps: { [OPP]: 8334 } }, { leavingOnChainMicros: 4_000_000n }),
    ).toEqual([]);
    // Another opportunity's cap does not apply.
    expect(codes({ maxAllocationBps: { [OTHER]: 1 } })).toEqual([]);
    // A first deposit holds everything on the chain: only 10000 lets it in.
    const first = { stakedInOpportunityMicros: 0n, stakedOnChainMicros: 0n };
    expect(codes({ maxAllocationBps: { [OPP]: 9999 } }, first)).toEqual([
      'guardrail_max_allocation',
    ]);
    expect(codes({ maxAllocationBps: { [OPP]: 10_000 } }, first)).toEqual([]);
  });

  it('compares the net APY (gross less the published skim); an unknown APY never passes', () => {
    const net = netApyBps(800, defaultFeeSchedule);
    expect(net).toBe(800 - (800 * defaultFeeSchedule.yieldSkimBps) / 10_000);
    expect(codes({ minNetApyBps: net })).toEqual([]);
    expect(codes({ minNetApyBps: net + 1 })).toEqual(['guardrail_min_net_apy']);
    expect(codes({ minNetApyBps: 0 }, { grossApyBps: null })).toEqual(['guardrail_min_net_apy']);
    const [apy] = checkGuardrails({ ...NONE, minNetApyBps: 1 }, { ...proposal, grossApyBps: null });
    expect(apy?.details).toMatchObject({ netApyBps: 'unknown', opportunityId: OPP });
  });

  it('names every broken guardrail, with the field at fault', () => {
    const blockers = checkGuardrails(
      {
        allowedChains: ['sui'],
        venueAllowlist: [OTHER],
        maxAllocationBps: { [OPP]: 1 },
        maxPerOpportunityMicros: 1n,
        minNetApyBps: 10_000,
      },
      proposal,
      { amountField: 'body.amountMicros' },
    );
    expect(blockers.map((b) => [b.code, b.field])).toEqual([
      ['guardrail_chain_not_allowed', 'guardrails.allowedChains'],
      ['guardrail_venue_not_allowed', 'guardrails.venueAllowlist'],
      ['guardrail_max_per_opportunity', 'body.amountMicros'],
      ['guardrail_max_allocation', 'body.amountMicros'],
      ['guardrail_min_net_apy', 'guardrails.minNetApyBps'],
    ]);
    for (const b of blockers) expect(b.message.length).toBeGreaterThan(10);
  });
});

const micros = fc.bigInt({ min: 0n, max: 10n ** 15n });
const arbitraryGuardrails = fc.record({
  allowedChains: fc.option(fc.subarray<Chain>(['sui', 'solana', 'base', 'arbitrum'])),
  venueAllowlist: fc.option(fc.subarray([OPP, OTHER])),
  maxAllocationBps: fc.option(fc.integer({ min: 1, max: 10_000 })),
  maxPerOpportunityMicros: fc.option(fc.bigInt({ min: 1n, max: 10n ** 15n })),
  minNetApyBps: fc.option(fc.integer({ min: 0, max: 5_000 })),
});
const arbitraryProposal = fc
  .record({
    chain: fc.constantFrom<Chain>('sui', 'solana', 'base', 'arbitrum'),
    opportunityId: fc.constantFrom(OPP, OTHER),
    amountMicros: fc.bigInt({ min: 1n, max: 10n ** 15n }),
    staked: micros,
    elsewhere: micros,
    leaving: micros,
    grossApyBps: fc.option(fc.integer({ min: -1_000, max: 10_000 })),
  })
  .map(({ staked, elsewhere, leaving, ...rest }) => ({
    ...rest,
    stakedInOpportunityMicros: staked,
    // What leaves comes out of the other opportunities on the chain.
    stakedOnChainMicros: staked + elsewhere + leaving,
    leavingOnChainMicros: leaving,
  }));

describe('checkGuardrails (property)', () => {
  it('a proposal that passes never exceeds any limit it was checked against', () => {
    fc.assert(
      fc.property(arbitraryGuardrails, arbitraryProposal, (drawn, p) => {
        const guardrails: Guardrails = {
          allowedChains: drawn.allowedChains,
          venueAllowlist: drawn.venueAllowlist,
          maxAllocationBps:
            drawn.maxAllocationBps === null ? {} : { [OPP]: drawn.maxAllocationBps },
          maxPerOpportunityMicros: drawn.maxPerOpportunityMicros,
          minNetApyBps: drawn.minNetApyBps,
        };
        const blockers = checkGuardrails(guardrails, p);
        const after = p.stakedInOpportunityMicros + p.amountMicros;
        const chainAfter = p.stakedOnChainMicros + p.amountMicros - p.leavingOnChainMicros;
        const broken = [
          guardrails.allowedChains !== null && !guardrails.allowedChains.includes(p.chain),
          guardrails.venueAllowlist !== null &&
            !guardrails.venueAllowlist.includes(p.opportunityId),
          guardrails.maxPerOpportunityMicros !== null && after > guardrails.maxPerOpportunityMicros,
          p.opportunityId === OPP &&
            drawn.maxAllocationBps !== null &&
            after * 10_000n > BigInt(drawn.maxAllocationBps) * chainAfter,
          guardrails.minNetApyBps !== null &&
            (p.grossApyBps === null || netApyBps(p.grossApyBps) < guardrails.minNetApyBps),
        ].filter(Boolean).length;
        // One blocker per broken limit: none when it passes, and a pass is within every limit.
        expect(blockers).toHaveLength(broken);
        if (blockers.length === 0) {
          if (guardrails.maxPerOpportunityMicros !== null) {
            expect(after).toBeLessThanOrEqual(guardrails.maxPerOpportunityMicros);
          }
          const bps = guardrails.maxAllocationBps[p.opportunityId];
          if (bps !== undefined)
            expect(after * 10_000n).toBeLessThanOrEqual(BigInt(bps) * chainAfter);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
