import type { PlanLegInput } from '@yieldrouter/ledger';
import type { BalanceChange, SimulatedLeg } from '@yieldrouter/schemas';
import { legBytesDigest } from '@yieldrouter/verify';
import { divergentChanges, flagDivergence } from './legDivergence';
import { roleOf, simulationDigest } from './simulatePlan';
import { simulationFindings } from './simulationFindings';

// Issue 44: what the simulation finds against the plan, and what settlement finds against the
// simulation, decided on the numbers alone (the anvil tests run the same on a chain).

const OWNER = '0x00000000000000000000000000000000000000aa';
const VAULT = '0x00000000000000000000000000000000000000bb';
const OTHER = '0x00000000000000000000000000000000000000cc';
const USDC = '0x00000000000000000000000000000000000000dd';

const change = (account: string, role: BalanceChange['role'], delta: string): BalanceChange => ({
  account,
  role,
  asset: USDC,
  usdc: true,
  delta,
});

const depositLeg: PlanLegInput = {
  action: 'deposit',
  summary: 'deposit',
  amountMicros: 1_000_000n,
  settles: true,
  payload: {},
  effect: 'stake',
};

const simulated = (changes: BalanceChange[]): SimulatedLeg => ({
  index: 0,
  bytesDigest: `sha256:${'0'.repeat(64)}`,
  outcome: 'ok',
  changes,
});

describe('simulationFindings', () => {
  it('none when the owner sends exactly the amount and the venue receives it', () => {
    const leg = simulated([change(OWNER, 'owner', '-1000000'), change(VAULT, 'venue', '1000000')]);
    expect(simulationFindings([depositLeg], [leg], OWNER)).toEqual([]);
  });

  it('a venue one micro short, and the micro elsewhere', () => {
    const leg = simulated([
      change(OWNER, 'owner', '-1000000'),
      change(VAULT, 'venue', '999999'),
      change(OTHER, 'other', '1'),
    ]);
    expect(simulationFindings([depositLeg], [leg], OWNER).map((finding) => finding.code)).toEqual([
      'unexpected_recipient',
      'venue_amount_mismatch',
    ]);
  });

  it('a leg that reverts', () => {
    const leg: SimulatedLeg = { ...simulated([]), outcome: 'reverted', detail: 'no allowance' };
    expect(simulationFindings([depositLeg], [leg], OWNER)).toEqual([
      { legIndex: 0, code: 'reverted', message: expect.stringContaining('no allowance') },
    ]);
  });

  const approveLeg: PlanLegInput = { ...depositLeg, action: 'approve', settles: false };
  const approval = (spender: string, role: BalanceChange['role'], allowance: string) => ({
    ...simulated([]),
    approvals: [{ holder: OWNER, spender, role, asset: USDC, usdc: true, allowance }],
  });

  it("an approval to a party the plan calls, for the leg's amount: none", () => {
    expect(simulationFindings([approveLeg], [approval(VAULT, 'venue', '1000000')], OWNER)).toEqual(
      [],
    );
  });

  it('an approval to a foreign spender, and one beyond the amount', () => {
    const codes = (leg: SimulatedLeg) =>
      simulationFindings([approveLeg], [leg], OWNER).map((finding) => finding.code);
    expect(codes(approval(OTHER, 'other', '1000000'))).toEqual(['approval_foreign_spender']);
    expect(codes(approval(VAULT, 'venue', '1000001'))).toEqual(['approval_beyond_amount']);
    // Someone else's allowance (a vault's own, say) is not the owner's to judge.
    const theirs = approval(OTHER, 'other', '9');
    const notOwners = { ...theirs, approvals: [{ ...theirs.approvals[0]!, holder: VAULT }] };
    expect(codes(notOwners)).toEqual([]);
  });

  it('a payout short of its payee, and a burn that takes more than its amount', () => {
    const payout: PlanLegInput = { ...depositLeg, action: 'transfer', effect: 'pay_out' };
    const paid = simulated([change(OWNER, 'owner', '-1000000'), change(VAULT, 'payee', '990000')]);
    expect(simulationFindings([payout], [paid], OWNER).map((finding) => finding.code)).toEqual([
      'payee_amount_mismatch',
    ]);
    const burn: PlanLegInput = { ...depositLeg, action: 'burn', effect: 'bridge_burn' };
    const burned = simulated([change(OWNER, 'owner', '-1000001')]);
    expect(simulationFindings([burn], [burned], OWNER).map((finding) => finding.code)).toEqual([
      'owner_amount_mismatch',
    ]);
  });
});

const CTOKEN = 'cTokenMint1111111111111111111111111111111111';

/**
 * The findings on a kamino leg of 1 USDC whose owner's USDC changes by `owner`, the venue's by
 * `venue`, a stranger's by `stranger`, and the owner's cTokens by `cTokens` (893,000 of them:
 * about 1.12 micros each).
 */
const kaminoFindings = (
  leg: PlanLegInput,
  moved: { owner: bigint; venue: bigint; cTokens: bigint; stranger?: bigint },
  venueId = 'kamino',
) => {
  const { owner, venue, cTokens, stranger = 0n } = moved;
  const simulatedLeg = simulated([
    change(OWNER, 'owner', String(owner)),
    change(VAULT, 'venue', String(venue)),
    ...(stranger > 0n ? [change(OTHER, 'other', String(stranger))] : []),
    { account: OWNER, role: 'owner', asset: CTOKEN, usdc: false, delta: String(cTokens) },
  ]);
  return simulationFindings([{ ...leg, venueId }], [simulatedLeg], OWNER, 'solana').map(
    (finding) => finding.code,
  );
};

describe("a kamino deposit: klend's rounding (floored cTokens, their liquidity rounded up)", () => {
  /** The owner pays `paid` of 1 USDC asked for 893,000 cTokens. */
  const kamino = (paid: bigint, received = paid, venueId = 'kamino') =>
    kaminoFindings(depositLeg, { owner: -paid, venue: received, cTokens: 893_000n }, venueId);

  it('one micro kept back (less than one cToken) is no finding; two, or any more taken, are', () => {
    expect(kamino(999_999n)).toEqual([]);
    expect(kamino(999_998n)).toEqual(['owner_amount_mismatch', 'venue_amount_mismatch']);
    expect(kamino(1_000_001n)).toEqual(['owner_amount_mismatch', 'venue_amount_mismatch']);
  });

  it('the venue must receive what the owner paid; a venue without that rounding, exactly', () => {
    expect(kamino(999_999n, 999_998n)).toEqual(['venue_amount_mismatch']);
    // Jupiter Lend and Save take a deposit exactly (their rounding is the withdrawal's only).
    for (const exact of ['jupiter-lend', 'save', 'marginfi']) {
      expect(kamino(999_999n, 999_999n, exact)).toEqual([
        'owner_amount_mismatch',
        'venue_amount_mismatch',
      ]);
    }
  });

  it('at settlement: its USDC balances may differ from the simulated by the rounding, either way', () => {
    const bound = { roundingMicros: 1n };
    const landed = (owner: bigint) => [
      { account: OWNER, asset: USDC, delta: owner },
      { account: VAULT, asset: USDC, delta: -owner },
    ];
    const planned = [change(OWNER, 'owner', '-999999'), change(VAULT, 'venue', '999999')];
    expect(divergentChanges(planned, landed(-1_000_000n), OWNER, bound)).toEqual([]);
    expect(divergentChanges(planned, landed(-999_998n), OWNER, bound)).toEqual([]);
    expect(divergentChanges(planned, landed(-999_997n), OWNER, bound)).toEqual([
      expect.objectContaining({ account: OWNER, actual: '-999997', tolerance: '1' }),
      expect.objectContaining({ account: VAULT, actual: '999997', tolerance: '1' }),
    ]);
  });
});

describe('a kamino (jupiter-lend, save) withdrawal: receipts burned rounded up, paid rounded down', () => {
  const withdrawLeg: PlanLegInput = { ...depositLeg, action: 'withdraw', effect: 'unstake' };
  /** The owner receives `received` of 1 USDC asked for 893,000 cTokens burned. */
  const kamino = (received: bigint, paid = received, venueId = 'kamino', stranger = 0n) =>
    kaminoFindings(
      withdrawLeg,
      { owner: received, venue: -paid, cTokens: -893_000n, stranger },
      venueId,
    );

  // received, paid by the venue, venue, paid to a stranger: the findings.
  it.each([
    [1_000_001n, 1_000_001n, 'kamino', 0n, []],
    [1_000_000n, 1_000_000n, 'kamino', 0n, []],
    [999_999n, 999_999n, 'kamino', 0n, ['owner_amount_mismatch', 'venue_amount_mismatch']],
    [1_000_002n, 1_000_002n, 'kamino', 0n, ['owner_amount_mismatch', 'venue_amount_mismatch']],
    [1_000_001n, 1_000_002n, 'kamino', 0n, ['venue_amount_mismatch']],
    [1_000_001n, 1_000_002n, 'kamino', 1n, ['unexpected_recipient', 'venue_amount_mismatch']],
    // Jupiter Lend and Save redeem the same way (withdrawals only): the same bound, no more.
    [1_000_001n, 1_000_001n, 'jupiter-lend', 0n, []],
    [1_000_001n, 1_000_001n, 'save', 0n, []],
    [1_000_002n, 1_000_002n, 'save', 0n, ['owner_amount_mismatch', 'venue_amount_mismatch']],
    [999_999n, 999_999n, 'jupiter-lend', 0n, ['owner_amount_mismatch', 'venue_amount_mismatch']],
    // A venue declaring no rounding: exactly the amount.
    [1_000_001n, 1_000_001n, 'marginfi', 0n, ['owner_amount_mismatch', 'venue_amount_mismatch']],
  ])(
    'the owner receiving %s (the venue paying %s, %s, a stranger %s): one micro more at most, never less',
    (received, paid, venueId, stranger, codes) => {
      expect(kamino(received, paid, venueId, stranger)).toEqual(codes);
    },
  );
});

describe('divergentChanges', () => {
  const planned = [change(OWNER, 'owner', '1000000'), change(VAULT, 'venue', '-1000000')];

  it('nothing when the transaction moved exactly what was simulated', () => {
    const actual = [
      { account: OWNER, asset: USDC, delta: 1_000_000n },
      { account: VAULT, asset: USDC, delta: -1_000_000n },
    ];
    expect(divergentChanges(planned, actual, OWNER)).toEqual([]);
  });

  it('one micro less to the owner, to someone the simulation never named', () => {
    const actual = [
      { account: OWNER, asset: USDC, delta: 999_999n },
      { account: VAULT, asset: USDC, delta: -1_000_000n },
      { account: OTHER, asset: USDC, delta: 1n },
      // Another token (the vault's shares) is not compared.
      { account: OWNER, asset: VAULT, delta: -7n },
    ];
    expect(divergentChanges(planned, actual, OWNER)).toEqual([
      { account: OWNER, role: 'owner', asset: USDC, simulated: '1000000', actual: '999999' },
      { account: OTHER, role: 'other', asset: USDC, simulated: '0', actual: '1' },
    ]);
  });

  it("a swap: the owner's output may fall short by its slippage and no more; the input is exact", () => {
    const WETH = '0x00000000000000000000000000000000000000ee';
    const POOL = '0x00000000000000000000000000000000000000ff';
    const swapped: BalanceChange[] = [
      change(OWNER, 'owner', '-1000000'),
      change(POOL, 'venue', '1000000'),
      { account: OWNER, role: 'owner', asset: WETH, usdc: false, delta: '400000' },
    ];
    const fill = (weth: bigint, usdc = -1_000_000n) => [
      { account: OWNER, asset: USDC, delta: usdc },
      // The pool's side moves with the market: not compared for a swap.
      { account: POOL, asset: USDC, delta: -usdc + 5n },
      { account: OWNER, asset: WETH, delta: weth },
    ];
    const bound = { slippageBps: 50 };
    // 0.5% of 400000 is 2000: 398000 is within, 397999 is not; more out is never a divergence.
    expect(divergentChanges(swapped, fill(398_000n), OWNER, bound)).toEqual([]);
    expect(divergentChanges(swapped, fill(410_000n), OWNER, bound)).toEqual([]);
    expect(divergentChanges(swapped, fill(397_999n), OWNER, bound)).toEqual([
      {
        account: OWNER,
        role: 'owner',
        asset: WETH,
        simulated: '400000',
        actual: '397999',
        tolerance: '2000',
      },
    ]);
    expect(divergentChanges(swapped, fill(400_000n, -1_000_001n), OWNER, bound)).toEqual([
      expect.objectContaining({ asset: USDC, simulated: '-1000000', actual: '-1000001' }),
    ]);
  });

  it('flags a confirmed outcome for review, keeping a review reason it had', () => {
    const divergence = { events: [], note: 'diverged' };
    expect(flagDivergence({ status: 'confirmed', reviewReason: 'short fill' }, divergence)).toEqual(
      { status: 'confirmed', reviewReason: 'short fill; diverged' },
    );
    expect(flagDivergence({ status: 'failed', reason: 'x' }, divergence)).toEqual({
      status: 'failed',
      reason: 'x',
    });
  });
});

// Solana and Sui: a Solana change names a token account and its holder; a Sui leg cannot
// show the venue's side (unobserved), which is then not judged.
describe('Solana token accounts and an unobserved venue', () => {
  const ata = 'G94WBk6qSkkMh8zKVd3nsSWBRCigagyEhCNdgm5qEzVf';
  const supply = '5UiSmcf4ZJa6nDQjonkXxgw7L2XkUHZYfm14FgrnNEuV';
  const authority = 'AhXpWU2tD9Gjm7nR4MYxRtWyY1a59BqZ6yTaVB83tUiK';

  it("takes the token account's role or, failing that, its holder's", () => {
    const roles = { owner: OWNER, venue: [supply], treasury: [] };
    expect(roleOf(roles, { account: ata, holder: OWNER })).toBe('owner');
    expect(roleOf(roles, { account: supply, holder: authority })).toBe('venue');
    expect(roleOf(roles, { account: ata, holder: authority })).toBe('other');
  });

  it('judges the owner and strangers, not a venue the simulation cannot show', () => {
    const unobserved = [{ role: 'venue' as const, reason: 'a Balance in a shared object' }];
    const owner = change(OWNER, 'owner', '-1000000');
    expect(
      simulationFindings([depositLeg], [{ ...simulated([owner]), unobserved }], OWNER),
    ).toEqual([]);
    expect(
      simulationFindings([depositLeg], [simulated([owner])], OWNER).map((f) => f.code),
    ).toEqual(['venue_amount_mismatch']);
    const stranger = simulated([change(OWNER, 'owner', '-1000000'), change(OTHER, 'other', '5')]);
    expect(
      simulationFindings([depositLeg], [{ ...stranger, unobserved }], OWNER).map((f) => f.code),
    ).toEqual(['unexpected_recipient']);
  });

  it("names a token account the simulation did not by its holder's role, holder kept", () => {
    const planned = [
      { ...change(ata, 'owner', '-1000000'), holder: OWNER },
      { ...change(supply, 'venue', '1000000'), holder: authority },
    ];
    const actual = [
      { account: ata, holder: OWNER, asset: USDC, delta: -1_000_000n },
      { account: supply, holder: authority, asset: USDC, delta: 999_000n },
      { account: OTHER, holder: OWNER, asset: USDC, delta: 1_000n },
    ];
    expect(divergentChanges(planned, actual, OWNER)).toEqual([
      {
        account: supply,
        holder: authority,
        role: 'venue',
        asset: USDC,
        simulated: '1000000',
        actual: '999000',
      },
      { account: OTHER, holder: OWNER, role: 'owner', asset: USDC, simulated: '0', actual: '1000' },
    ]);
  });
});

describe('digests', () => {
  it('bind the outcome to the exact bytes: any change to the bytes changes the digest', () => {
    const request = { chainId: 8453, from: OWNER, to: VAULT, data: '0x1234', value: '0' };
    const one = legBytesDigest({ encoding: 'evm-transaction-request', transaction: request });
    const two = legBytesDigest({
      encoding: 'evm-transaction-request',
      transaction: { ...request, data: '0x1235' },
    });
    expect(one).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(two).not.toBe(one);
    const leg = simulated(planned());
    expect(simulationDigest('plan_a', [leg])).not.toBe(
      simulationDigest('plan_a', [{ ...leg, bytesDigest: two }]),
    );
  });

  it('do not depend on the order of keys (the stored document comes back from JSONB)', () => {
    const request = { chainId: 8453, from: OWNER, to: VAULT, data: '0x1234', value: '0' };
    const { to, data, from, value, chainId } = request;
    expect(legBytesDigest({ encoding: 'evm-transaction-request', transaction: request })).toBe(
      legBytesDigest({
        encoding: 'evm-transaction-request',
        transaction: { to, data, from, value, chainId },
      }),
    );
    const leg = simulated(planned());
    const reversed = Object.fromEntries(Object.entries(leg).reverse()) as SimulatedLeg;
    expect(simulationDigest('plan_a', [reversed])).toBe(simulationDigest('plan_a', [leg]));
  });
});

function planned() {
  return [change(OWNER, 'owner', '-1000000'), change(VAULT, 'venue', '1000000')];
}
