import { randomBytes } from 'node:crypto';
import type { AccountMeta, Keypair, PublicKey } from '@solana/web3.js';
import { deployKlendStandin } from './deployKlendStandin';
import { klendMove, klendRefreshReserve } from './klendStandinInstructions';
import type { KlendStandinReserve } from './klendStandinInstructions';
import { ata } from './programInstructions';
import { programLogs } from './testing/programHarness';
import {
  createKlendRouterFixture,
  expectRunOk as ok,
  sendRoutedKlendLeg,
} from './testing/klendRouterFixture';
import type { ProgramFixture } from './testing/programFixture';

const SLOTS_PER_YEAR = 63_072_000n;
const FRACTION = 1n << 60n;

/** The reserve fields the stand-in keeps at klend's offsets (decoded with klend-sdk in chain-solana). */
function reserveState(fixture: ProgramFixture, reserve: KlendStandinReserve) {
  const data = Buffer.from(fixture.harness.data(reserve.reserve) ?? []);
  const u128 = (at: number) => data.readBigUInt64LE(at) + (data.readBigUInt64LE(at + 8) << 64n);
  return {
    slot: data.readBigUInt64LE(16),
    available: data.readBigUInt64LE(224),
    borrowedSf: u128(232),
    protocolFeesSf: u128(344),
    supply: data.readBigUInt64LE(2592),
  };
}

describe('klend stand-in behind the router (klend layout)', () => {
  let fixture: ProgramFixture;
  let reserve: KlendStandinReserve;
  let owner: Keypair;
  let planId: Uint8Array;
  beforeEach(() => {
    ({ fixture, reserve, owner } = createKlendRouterFixture(100_000_000n));
    planId = randomBytes(16);
  });

  const routed = (
    name: 'deposit_to_venue' | 'withdraw_from_venue',
    amount: bigint,
    accounts?: (metas: AccountMeta[]) => AccountMeta[],
  ) => sendRoutedKlendLeg({ fixture, reserve, owner }, { name, amount, planId, accounts });
  const usdc = (key: PublicKey) => fixture.tokenBalance(ata(key, fixture.usdcMint));
  const ctokens = (key: PublicKey) => fixture.tokenBalance(ata(key, reserve.collateralMint));
  const warp = (slots: bigint) => {
    fixture.harness.svm.warpToSlot(fixture.harness.svm.getClock().slot + slots);
  };

  it('deposits through the router at the reserve rate, accrues interest, redeems cTokens worth at least the USDC asked', () => {
    const run = ok(routed('deposit_to_venue', 40_000_000n));
    expect(programLogs(run)).toContain(
      `svc:plan_${Buffer.from(planId).toString('hex')} deposit_to_venue amount=40000000`,
    );
    // Seed 100 USDC at 1:1, 50 borrowed: the rate is still one.
    expect(ctokens(owner.publicKey)).toBe(40_000_000n);
    expect(usdc(owner.publicKey)).toBe(60_000_000n);

    // A tenth of a year at 10% on 50 USDC: 0.5 USDC of interest, 10% of it protocol fees.
    warp(SLOTS_PER_YEAR / 10n);
    ok(fixture.harness.send([klendRefreshReserve(reserve)], [fixture.admin]));
    const state = reserveState(fixture, reserve);
    expect(state.borrowedSf).toBe((50_000_000n + 500_000n) * FRACTION);
    expect(state.protocolFeesSf).toBe(50_000n * FRACTION);
    const total = state.available * FRACTION + state.borrowedSf - state.protocolFeesSf;
    expect(total).toBe(140_450_000n * FRACTION);

    // 20 USDC out: ceil(20 × supply / total) cTokens, paid floor(cTokens × total / supply).
    const shares = (20_000_000n * state.supply * FRACTION + total - 1n) / total;
    const back = ok(routed('withdraw_from_venue', shares));
    expect(programLogs(back)).toContain(
      `svc:plan_${Buffer.from(planId).toString('hex')} withdraw_from_venue shares=${shares}`,
    );
    const paid = (shares * total) / (state.supply * FRACTION);
    expect(paid).toBeGreaterThanOrEqual(20_000_000n);
    // The yield skim (500 bps) on what the cTokens earned above the principal they carry.
    const principal = (40_000_000n * shares + 40_000_000n - 1n) / 40_000_000n;
    const skim = ((paid - principal) * 500n) / 10_000n;
    expect(skim).toBeGreaterThan(0n);
    expect(fixture.tokenBalance(fixture.treasuryUsdc)).toBe(skim);
    expect(usdc(owner.publicKey)).toBe(60_000_000n + paid - skim);
    expect(ctokens(owner.publicKey)).toBe(40_000_000n - shares);
  });

  it('takes only the liquidity the minted cTokens are worth (klend 1.16), never more than asked', () => {
    warp(SLOTS_PER_YEAR / 10n);
    ok(fixture.harness.send([klendRefreshReserve(reserve)], [fixture.admin]));
    const state = reserveState(fixture, reserve);
    const total = state.available * FRACTION + state.borrowedSf - state.protocolFeesSf;
    ok(routed('deposit_to_venue', 10_000_001n));
    const minted = (10_000_001n * state.supply * FRACTION) / total;
    const taken = (minted * total + state.supply * FRACTION - 1n) / (state.supply * FRACTION);
    expect(ctokens(owner.publicKey)).toBe(minted);
    expect(usdc(owner.publicKey)).toBe(100_000_000n - taken);
    expect(taken).toBeLessThanOrEqual(10_000_001n);
  });

  it('refuses a foreign reserve at the layout index with Custom(19)', () => {
    const send = (
      instructions: Parameters<typeof fixture.harness.send>[0],
      signers: readonly Keypair[],
    ) => {
      ok(fixture.harness.send(instructions, [fixture.admin, ...signers]));
    };
    const other = deployKlendStandin({
      svm: fixture.harness.svm,
      send,
      admin: fixture.admin,
      usdcMint: fixture.usdcMint,
      seedMicros: 0n,
    });
    const run = routed('deposit_to_venue', 1_000_000n, (metas) =>
      metas.map((meta, index) => (index === 1 ? { ...meta, pubkey: other.reserve } : meta)),
    );
    expect(run.ok).toBe(false);
    expect(run.error).toContain('Custom(19)');
    expect(usdc(owner.publicKey)).toBe(100_000_000n);
  });

  it("refuses another owner's USDC or cToken account with Custom(13)", () => {
    const victim = fixture.owner(5_000_000n);
    for (const [index, account] of [
      [7, ata(victim.publicKey, fixture.usdcMint)],
      [8, ata(fixture.admin.publicKey, reserve.collateralMint)],
    ] as const) {
      const run = routed('deposit_to_venue', 1_000_000n, (metas) =>
        metas.map((meta, i) => (i === index ? { ...meta, pubkey: account } : meta)),
      );
      expect(run.ok).toBe(false);
      expect(run.error).toContain('Custom(13)');
    }
    expect(usdc(victim.publicKey)).toBe(5_000_000n);
  });

  it('answers klend callers directly too (the stand-in is klend, the router only forwards)', () => {
    ok(
      fixture.harness.send(
        [klendMove('deposit_reserve_liquidity', reserve, owner.publicKey, 3_000_000n)],
        [owner],
      ),
    );
    expect(ctokens(owner.publicKey)).toBe(3_000_000n);
  });
});
