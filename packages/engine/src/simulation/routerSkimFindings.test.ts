import type { PlanLegInput } from '@yieldrouter/ledger';
import type { BalanceChange, SimulatedLeg } from '@yieldrouter/schemas';
import { simulationFindings } from './simulationFindings';

// A Solana withdrawal through the router: the router pays its yield skim to the treasury inside
// the withdraw leg. The plan grossed the leg up (2,004 for the 2,000 asked) and computed the
// skim (4): the owner is judged against 2,000, the venue against the owner's and the skim, the
// treasury against the skim (the bed's numbers: kaminoRounding.solana.test.ts).

const OWNER = 'Owner11111111111111111111111111111111111111';
const RESERVE = 'Reserve1111111111111111111111111111111111111';
const TREASURY = 'Treasury111111111111111111111111111111111111';
const USDC = 'Usdc111111111111111111111111111111111111111';
const CTOKEN = 'cToken11111111111111111111111111111111111111';

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
function findings(
  moved: { owner: bigint; venue: bigint; treasury: bigint },
  planSkim: bigint | null = 4n,
): string[] {
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

describe("a withdrawal paying the router's skim inside it", () => {
  it("the owner receiving the leg's amount less the plan's skim, the treasury the skim: none", () => {
    expect(findings({ owner: 2_000n, venue: -2_004n, treasury: 4n })).toEqual([]);
  });

  it("klend paying beyond the amount (its rounding) is the owner's: none", () => {
    expect(findings({ owner: 2_001n, venue: -2_005n, treasury: 4n })).toEqual([]);
  });

  it("a treasury paid more than the plan's skim is flagged, whoever pays it", () => {
    // Out of the owner's part.
    expect(findings({ owner: 1_999n, venue: -2_004n, treasury: 5n })).toEqual([
      'treasury_amount_mismatch',
      'owner_amount_mismatch',
    ]);
    // Out of the venue, the owner paid in full.
    expect(findings({ owner: 2_000n, venue: -2_005n, treasury: 5n })).toEqual([
      'treasury_amount_mismatch',
      'venue_amount_mismatch',
    ]);
  });

  it('the owner receiving less than the net, or the treasury less than the skim, is flagged', () => {
    expect(findings({ owner: 1_999n, venue: -2_003n, treasury: 4n })).toEqual([
      'owner_amount_mismatch',
      'venue_amount_mismatch',
    ]);
    expect(findings({ owner: 2_000n, venue: -2_004n, treasury: 3n })).toEqual([
      'treasury_amount_mismatch',
    ]);
  });

  it('without a skim computed by the plan, the treasury paid is not excused', () => {
    expect(findings({ owner: 2_000n, venue: -2_004n, treasury: 4n }, null)).toEqual([
      'owner_amount_mismatch',
    ]);
  });
});
