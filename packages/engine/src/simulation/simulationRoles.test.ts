import type { PlanLegInput } from '@yieldrouter/ledger';
import type { BalanceChange, SimulatedLeg } from '@yieldrouter/schemas';
import { divergentChanges } from './legDivergence';
import { roleOf } from './simulatePlan';
import { simulationFindings } from './simulationFindings';

// Issue 44 on Solana and Sui, on the numbers alone: a Solana change names a token account and
// its holder; a Sui leg cannot show the venue's side (unobserved), which is then not judged.

const OWNER = 'A1nHSi3n92FJ5A7zsTQMPNFopf5koDZvSnTDrrPRwA6r';
const OWNER_ATA = 'G94WBk6qSkkMh8zKVd3nsSWBRCigagyEhCNdgm5qEzVf';
const SUPPLY = '5UiSmcf4ZJa6nDQjonkXxgw7L2XkUHZYfm14FgrnNEuV';
const SUPPLY_AUTHORITY = 'AhXpWU2tD9Gjm7nR4MYxRtWyY1a59BqZ6yTaVB83tUiK';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

const deposit: PlanLegInput = {
  action: 'deposit',
  summary: 'deposit',
  amountMicros: 1_000_000n,
  settles: true,
  payload: {},
  effect: 'stake',
};

const usdc = (account: string, role: BalanceChange['role'], delta: string): BalanceChange => ({
  account,
  role,
  asset: USDC,
  usdc: true,
  delta,
});

const leg = (changes: BalanceChange[], extra: Partial<SimulatedLeg> = {}): SimulatedLeg => ({
  index: 0,
  bytesDigest: `sha256:${'0'.repeat(64)}`,
  outcome: 'ok',
  changes,
  ...extra,
});

describe('roleOf', () => {
  const roles = { owner: OWNER, venue: [SUPPLY], treasury: [] };
  it("is the token account's role or, failing that, its holder's", () => {
    expect(roleOf(roles, { account: OWNER_ATA, holder: OWNER })).toBe('owner');
    expect(roleOf(roles, { account: SUPPLY, holder: SUPPLY_AUTHORITY })).toBe('venue');
    expect(roleOf(roles, { account: OWNER_ATA, holder: SUPPLY_AUTHORITY })).toBe('other');
    expect(roleOf(roles, { account: OWNER })).toBe('owner');
  });
});

describe('simulationFindings with a venue the simulation cannot show', () => {
  const unobserved = [{ role: 'venue' as const, reason: 'a Balance inside a shared object' }];
  it('judges the owner and strangers, not the unseen venue', () => {
    expect(
      simulationFindings([deposit], [leg([usdc(OWNER, 'owner', '-1000000')], { unobserved })]),
    ).toEqual([]);
    const stranger = leg(
      [usdc(OWNER, 'owner', '-1500000'), usdc('0xstranger', 'other', '500000')],
      { unobserved },
    );
    expect(simulationFindings([deposit], [stranger]).map((finding) => finding.code)).toEqual([
      'unexpected_recipient',
      'owner_amount_mismatch',
    ]);
  });
  it('still judges the venue where it is seen', () => {
    expect(
      simulationFindings([deposit], [leg([usdc(OWNER, 'owner', '-1000000')])]).map((f) => f.code),
    ).toEqual(['venue_amount_mismatch']);
  });
});

describe('divergentChanges with Solana token accounts', () => {
  it("names an unsimulated token account by its holder's role, holder kept", () => {
    const simulated = [
      { ...usdc(OWNER_ATA, 'owner', '-1000000'), holder: OWNER },
      { ...usdc(SUPPLY, 'venue', '1000000'), holder: SUPPLY_AUTHORITY },
    ];
    const otherAta = 'Hq5ZB3uZMxU6kD1VvKx2Ls9Dq2j6s1ArbHqb7RgqQ8Xo';
    const actual = [
      { account: OWNER_ATA, holder: OWNER, asset: USDC, delta: -1_000_000n },
      { account: SUPPLY, holder: SUPPLY_AUTHORITY, asset: USDC, delta: 999_000n },
      { account: otherAta, holder: OWNER, asset: USDC, delta: 1_000n },
    ];
    expect(divergentChanges(simulated, actual, OWNER)).toEqual([
      {
        account: SUPPLY,
        holder: SUPPLY_AUTHORITY,
        role: 'venue',
        asset: USDC,
        simulated: '1000000',
        actual: '999000',
      },
      {
        account: otherAta,
        holder: OWNER,
        role: 'owner',
        asset: USDC,
        simulated: '0',
        actual: '1000',
      },
    ]);
  });
});
