import type { TrackedPosition } from '@yieldrouter/ledger';
import type { Guardrails } from '../guardrail/checkGuardrails';
import type { AutopilotOpportunity } from './decideAutopilot';
import { guardrailCheck } from './autopilotGuardrails';

const NO_LIMITS: Guardrails = {
  allowedChains: null,
  venueAllowlist: null,
  maxAllocationBps: {},
  maxPerOpportunityMicros: null,
  minNetApyBps: null,
};

const venue = (opportunityId: string, grossApyBps: number | null = 1000): AutopilotOpportunity => ({
  opportunityId,
  venueId: opportunityId,
  protocol: opportunityId,
  chain: 'solana',
  ready: true,
  apyMean30dBps: grossApyBps,
  apyMean30dSamples: 30,
  grossApyBps,
  wave: 1,
  priority: 1,
});

const position = (opportunityId: string, stakedMicros: bigint) =>
  ({
    wallet: 'w',
    chain: 'solana',
    opportunityId,
    venueId: opportunityId,
    stakedMicros,
  }) as TrackedPosition;

const held = [position('svcopa', 4_000_000n), position('svcopb', 1_000_000n)];
const incumbent = { opportunityId: 'svcopa', venueId: 'svcopa', stakedMicros: 4_000_000n };

describe('guardrailCheck: what the autopilot asks the guardrails', () => {
  it('a challenger is checked with the whole incumbent moving into it', () => {
    const check = guardrailCheck(
      { ...NO_LIMITS, maxPerOpportunityMicros: 4_999_999n },
      held,
      'solana',
      incumbent,
    );
    // svcopb would hold 1 + 4 = 5 USDC, one micro over its cap; svcopc 4 USDC.
    expect(check(venue('svcopb'))).toEqual(['guardrail_max_per_opportunity']);
    expect(check(venue('svcopc'))).toEqual([]);
  });

  it('allocation counts what leaves the incumbent on the same chain', () => {
    const check = guardrailCheck(
      { ...NO_LIMITS, maxAllocationBps: { svcopc: 7_999 } },
      held,
      'solana',
      incumbent,
    );
    // After the move svcopc holds 4 of the chain's 5 USDC: 8000 bps.
    expect(check(venue('svcopc'))).toEqual(['guardrail_max_allocation']);
  });

  it('the incumbent (and a wallet with nothing staked) face only the rules that weigh no amount', () => {
    const guardrails = { ...NO_LIMITS, maxPerOpportunityMicros: 1n, minNetApyBps: 900 };
    const check = guardrailCheck(guardrails, held, 'solana', incumbent);
    expect(check(venue('svcopa'))).toEqual([]);
    expect(check(venue('svcopa', 900))).toEqual(['guardrail_min_net_apy']);
    expect(guardrailCheck(guardrails, [], 'solana', null)(venue('svcopc', null))).toEqual([
      'guardrail_min_net_apy',
    ]);
    expect(
      guardrailCheck(
        { ...NO_LIMITS, venueAllowlist: ['svcopc'] },
        held,
        'solana',
        incumbent,
      )(venue('svcopa')),
    ).toEqual(['guardrail_venue_not_allowed']);
  });
});
