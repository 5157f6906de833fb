import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import type { PublicKey } from '@solana/web3.js';
import { standinSetSkim } from './klendStandinInstructions';
import type { KlendStandinReserve } from './klendStandinInstructions';
import { ata } from './programInstructions';
import { programLogs } from './testing/programHarness';
import {
  createKlendRouterFixture,
  expectRunOk as ok,
  sendRoutedKlendLeg,
} from './testing/klendRouterFixture';
import type { ProgramFixture } from './testing/programFixture';

// The skimming klend stand-in (issue 44's cheating bed): klend's interface, honest until the
// market owner turns the skim on; then it moves more (less) USDC than its log, its cTokens and
// the router's event say. What the settlement check has to catch from the token balances.

describe('klend_skimming behind the router (klend layout)', () => {
  let fixture: ProgramFixture;
  let reserve: KlendStandinReserve;
  let owner: Keypair;
  const program = Keypair.generate().publicKey;
  beforeEach(() => {
    ({ fixture, reserve, owner } = createKlendRouterFixture(100_000_000n, {
      skimming: { program },
    }));
  });

  const routed = (name: 'deposit_to_venue' | 'withdraw_from_venue', amount: bigint) => {
    const planId = randomBytes(16);
    const run = ok(sendRoutedKlendLeg({ fixture, reserve, owner }, { name, amount, planId }));
    return { logs: programLogs(run), tag: `svc:plan_${planId.toString('hex')}` };
  };
  const usdc = (key: PublicKey) => fixture.tokenBalance(ata(key, fixture.usdcMint));
  const supply = () => fixture.tokenBalance(reserve.liquiditySupply);
  const ctokens = () => fixture.tokenBalance(ata(owner.publicKey, reserve.collateralMint));
  const setSkim = (bps: bigint, signer = fixture.admin) =>
    fixture.harness.send([standinSetSkim(reserve, signer.publicKey, bps)], [signer]);

  it('is honest until the skim is on: the deposit moves what its log says', () => {
    const before = supply();
    const { logs } = routed('deposit_to_venue', 10_000_000n);
    expect(logs).toContain('klend_standin: deposit liquidity=10000000 collateral=10000000');
    expect(usdc(owner.publicKey)).toBe(90_000_000n);
    expect(supply() - before).toBe(10_000_000n);
    expect(ctokens()).toBe(10_000_000n);
  });

  it('once skimming, takes 5% on top of each deposit and keeps 5% of each redemption; its log claims the plan', () => {
    ok(setSkim(500n));
    const before = supply();
    const deposit = routed('deposit_to_venue', 10_000_000n);
    // The log, the cTokens and the router's event all say 10 USDC; the owner paid 10.5.
    expect(deposit.logs).toContain('klend_standin: deposit liquidity=10000000 collateral=10000000');
    expect(deposit.logs).toContain(`${deposit.tag} deposit_to_venue amount=10000000`);
    expect(ctokens()).toBe(10_000_000n);
    expect(usdc(owner.publicKey)).toBe(89_500_000n);
    expect(supply() - before).toBe(10_500_000n);

    const redeem = routed('withdraw_from_venue', 4_000_000n);
    expect(redeem.logs).toContain('klend_standin: redeem liquidity=4000000 collateral=4000000');
    // 4 USDC booked as paid, 3.8 reach the owner (no yield: the router's skim is 0).
    expect(usdc(owner.publicKey)).toBe(89_500_000n + 3_800_000n);
    expect(supply() - before).toBe(10_500_000n - 3_800_000n);
  });

  it('takes the skim only from the market owner; the honest stand-in has no such instruction', () => {
    const stranger = fixture.owner(0n);
    const refused = setSkim(500n, stranger);
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain('Custom(10)');
    const honest = createKlendRouterFixture(1_000_000n);
    const run = honest.fixture.harness.send(
      [standinSetSkim(honest.reserve, honest.fixture.admin.publicKey, 500n)],
      [honest.fixture.admin],
    );
    expect(run.ok).toBe(false);
    expect(run.error).toContain('Custom(1)');
  });
});
