import type { PlanLegInput } from '@yieldrouter/ledger';
import type { BalanceChange, SimulatedLeg } from '@yieldrouter/schemas';
import { simulationFindings } from './simulationFindings';

// A Solana withdrawal through the router: the router pays its yield skim to the treasury inside
// the withdraw leg. The plan grossed the leg up (2,004 for the 2,000 asked) and computed the
// skim (4): the owner is judged against 2,000, the venue against the owner's and the skim, the
// treasury against the skim (the bed's numbers: kaminoRounding.solana.test.ts).

// Solana accounts by name: the owner, klend's reserve vault, the treasury, the two mints.
const [OWNER, RESERVE, TREASURY, USDC, CTOKEN] = ['Owner', 'Reserve', 'Treasury', 'Usdc', 'cT'].map(
  (name) => name.padEnd(44, '1'),
) as [string, string, string, string, string];

/** The plan's leg: 2,004 for the venue to pay, of which the plan's skim is 4. */
const withdrawLeg: PlanLegInput = {
  action: 'withdraw',
  summary: 'withdraw',
  amountMicros: 2_004n,
  settles: true,
  payload: {},
  effect: 'unstake',
  venueId: 'kamino',
};

const usdc = (account: string, role: BalanceChange['role'], delta: bigint): BalanceChange => ({
  account,
  role,
  asset: USDC,
  usdc: true,
  delta: String(delta),
});

/** The codes found on the leg whose owner, venue and treasury USDC change by these. */
function findings(moved: Moved, planSkim: bigint | null = 4n): string[] {
  const leg: SimulatedLeg = {
    index: 0,
    bytesDigest: `sha256:${'0'.repeat(64)}`,
    outcome: 'ok',
    changes: [
      usdc(OWNER, 'owner', moved.owner),
      usdc(RESERVE, 'venue', moved.venue),
      usdc(TREASURY, 'treasury', moved.treasury),
      // 1,000 cTokens burnt: about 2 micros each, so klend may pay up to 2 micros beyond.
      { account: OWNER, role: 'owner', asset: CTOKEN, usdc: false, delta: '-1000' },
    ],
  };
  const skims = planSkim === null ? undefined : new Map([[0, planSkim]]);
  return simulationFindings([withdrawLeg], [leg], OWNER, 'solana', skims).map(
    (finding) => finding.code,
  );
}

type Moved = { owner: bigint; venue: bigint; treasury: bigint };

describe("a withdrawal paying the router's skim inside it", () => {
  it.each<[string, Moved, string[]]>([
    [
      "the owner receives the leg's amount less the plan's skim, the treasury the skim",
      { owner: 2_000n, venue: -2_004n, treasury: 4n },
      [],
    ],
    [
      "klend pays beyond the amount (its rounding, the owner's)",
      { owner: 2_001n, venue: -2_005n, treasury: 4n },
      [],
    ],
    [
      "the treasury takes more than the plan's skim out of the owner's part",
      { owner: 1_999n, venue: -2_004n, treasury: 5n },
      ['treasury_amount_mismatch', 'owner_amount_mismatch'],
    ],
    [
      // The router computes its skim on what klend paid: a micro of the rounding goes to it.
      "klend pays beyond the amount, the skim taking its share of that (the bed's probe)",
      { owner: 2_001n, venue: -2_006n, treasury: 5n },
      [],
    ],
    [
      "the treasury takes more than its share of the venue's rounding",
      { owner: 2_000n, venue: -2_006n, treasury: 6n },
      ['treasury_amount_mismatch', 'venue_amount_mismatch'],
    ],
    [
      "the treasury takes the venue's rounding beyond what klend may pay",
      { owner: 2_000n, venue: -2_007n, treasury: 7n },
      ['treasury_amount_mismatch', 'venue_amount_mismatch'],
    ],
    [
      'the owner receives less than the net',
      { owner: 1_999n, venue: -2_003n, treasury: 4n },
      ['owner_amount_mismatch', 'venue_amount_mismatch'],
    ],
    [
      "the treasury receives less than the plan's skim",
      { owner: 2_000n, venue: -2_004n, treasury: 3n },
      ['treasury_amount_mismatch'],
    ],
  ])('%s', (_, moved, codes) => {
    expect(findings(moved)).toEqual(codes);
  });

  it('without a skim computed by the plan, the treasury paid is not excused', () => {
    expect(findings({ owner: 2_000n, venue: -2_004n, treasury: 4n }, null)).toEqual([
      'owner_amount_mismatch',
    ]);
  });
});
