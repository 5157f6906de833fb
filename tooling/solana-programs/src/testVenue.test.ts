import type { Keypair } from '@solana/web3.js';
import { programLogs } from './testing/programHarness';
import { createProgramFixture } from './testing/programFixture';
import type { ProgramFixture } from './testing/programFixture';
import { ata, venueAccrue, venueMove } from './programInstructions';

describe('test_venue program (the Solana twin of TestVault4626)', () => {
  let fixture: ProgramFixture;
  let alice: Keypair;
  let bob: Keypair;
  beforeEach(() => {
    fixture = createProgramFixture();
    alice = fixture.owner(100_000_000n);
    bob = fixture.owner(100_000_000n);
    fixture.mintUsdc(fixture.admin.publicKey, 1_000_000_000n);
  });

  const move = (who: Keypair, name: 'deposit' | 'withdraw', assets: bigint) =>
    fixture.harness.send(
      [venueMove(name, fixture.venue, who.publicKey, fixture.usdcMint, assets)],
      [who],
    );
  const accrue = (assets: bigint, signer = fixture.admin) =>
    fixture.harness.send(
      [venueAccrue(fixture.venue, signer.publicKey, fixture.usdcMint, assets)],
      [signer],
    );
  const shares = (who: Keypair) =>
    fixture.tokenBalance(ata(who.publicKey, fixture.venue.receiptMint));
  const usdc = (who: Keypair) => fixture.tokenBalance(ata(who.publicKey, fixture.usdcMint));
  const totalAssets = () =>
    Buffer.from(fixture.harness.data(fixture.venue.venue) ?? []).readBigUInt64LE(136);

  it('mints shares 1:1 while the price is 1, and redeems them for the same USDC', () => {
    const run = move(alice, 'deposit', 10_000_000n);
    expect(run.error).toBeUndefined();
    expect(programLogs(run)).toContain('test_venue: deposit assets=10000000 shares=10000000');
    expect(shares(alice)).toBe(10_000_000n);
    expect(totalAssets()).toBe(10_000_000n);
    expect(move(alice, 'withdraw', 4_000_000n).error).toBeUndefined();
    expect(shares(alice)).toBe(6_000_000n);
    expect(usdc(alice)).toBe(94_000_000n);
  });

  it('accrues: the share price rises, later deposits get fewer shares, holders redeem more', () => {
    expect(move(alice, 'deposit', 50_000_000n).ok).toBe(true);
    // 5 USDC of yield on 50: one share is now worth 1.1 USDC.
    const accrued = accrue(5_000_000n);
    expect(accrued.error).toBeUndefined();
    expect(totalAssets()).toBe(55_000_000n);
    expect(shares(alice)).toBe(50_000_000n);

    const bobIn = move(bob, 'deposit', 11_000_000n);
    expect(programLogs(bobIn)).toContain('test_venue: deposit assets=11000000 shares=10000000');
    expect(shares(bob)).toBe(10_000_000n);

    // Alice takes out 55 USDC: all her 50 shares (rounded up, in the venue's favour).
    const out = move(alice, 'withdraw', 55_000_000n);
    expect(programLogs(out)).toContain('test_venue: withdraw assets=55000000 shares=50000000');
    expect(usdc(alice)).toBe(105_000_000n);
    expect(shares(alice)).toBe(0n);
  });

  it('rounds shares for a withdrawal up, never paying more than the shares are worth', () => {
    expect(move(alice, 'deposit', 3_000_000n).ok).toBe(true);
    expect(accrue(1_000_000n).ok).toBe(true); // 3 shares-units now worth 4: price 4/3
    const out = move(alice, 'withdraw', 1_000_000n); // 0.75 shares → 750000 exactly
    expect(programLogs(out)).toContain('test_venue: withdraw assets=1000000 shares=750000');
    const odd = move(alice, 'withdraw', 1n); // 0.75 of a share unit → 1 (rounded up)
    expect(programLogs(odd)).toContain('test_venue: withdraw assets=1 shares=1');
  });

  it('refuses: zero amounts, more than the venue holds, more shares than the holder has, accrue by a non-admin', () => {
    expect(move(alice, 'deposit', 0n).error).toContain('Custom(5)');
    expect(move(alice, 'deposit', 10_000_000n).ok).toBe(true);
    expect(move(alice, 'withdraw', 10_000_001n).error).toContain('Custom(7)');
    expect(move(bob, 'deposit', 1_000_000n).ok).toBe(true);
    // Bob holds 1 share-unit of USDC value; asking for 2 needs shares he does not have.
    expect(move(bob, 'withdraw', 2_000_000n).ok).toBe(false);
    expect(accrue(1_000_000n, bob).error).toContain('Custom(9)');
  });
});
