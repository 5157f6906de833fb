import { randomBytes } from 'node:crypto';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferInstruction,
} from '@solana/spl-token';
import { TransactionInstruction } from '@solana/web3.js';
import type { Keypair } from '@solana/web3.js';
import { address, programLogs } from './testing/programHarness';
import type { ProgramRun } from './testing/programHarness';
import { createProgramFixture } from './testing/programFixture';
import type { ProgramFixture } from './testing/programFixture';
import {
  ata,
  planMemo,
  registryPda,
  routerVenueLeg,
  setFeeConfig,
  venueAccrue,
  venuePositionPda,
} from './programInstructions';

// The yield skim on chain (issue #46): the router records what each owner routed into a venue
// and, on the way out, pays the registry's skim on the yield above it to the treasury.

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

function expectRefused(run: ProgramRun, code: number): void {
  expect(run.ok).toBe(false);
  expect(run.error).toContain(`Custom(${code})`);
}

describe('yield_router: the yield skim', () => {
  let fixture: ProgramFixture;
  let owner: Keypair;
  let planId: Uint8Array;
  beforeEach(() => {
    fixture = createProgramFixture();
    owner = fixture.owner(100_000_000n);
    planId = randomBytes(16);
  });

  const send = (instructions: TransactionInstruction[], signers: Keypair[]) =>
    fixture.harness.send([...instructions, planMemo(planId)], signers);
  const leg = (
    name: 'deposit_to_venue' | 'withdraw_from_venue',
    amount: bigint,
    who: Keypair = owner,
    extra: { readonly treasury?: ReturnType<typeof ata> } = {},
  ) =>
    send(
      [
        routerVenueLeg(name, {
          programId: fixture.routerProgram,
          owner: who.publicKey,
          usdcMint: fixture.usdcMint,
          amount,
          planId,
          venue: fixture.venue,
          treasury: extra.treasury ?? fixture.treasuryUsdc,
        }),
      ],
      [who],
    );
  const usdcOf = (key: Keypair) => fixture.tokenBalance(ata(key.publicKey, fixture.usdcMint));
  const receiptsOf = (key: Keypair) =>
    fixture.tokenBalance(ata(key.publicKey, fixture.venue.receiptMint));
  const treasury = () => fixture.tokenBalance(fixture.treasuryUsdc);
  const position = (key: Keypair) => {
    const data = Buffer.from(
      fixture.harness.data(
        venuePositionPda(fixture.routerProgram, key.publicKey, fixture.venue.venue),
      ) ?? new Uint8Array(96),
    );
    return { principal: data.readBigUInt64LE(80), shares: data.readBigUInt64LE(88) };
  };
  /** Yield arrives in the venue: the admin adds USDC to the reserve without minting receipts. */
  const accrue = (micros: bigint) => {
    fixture.mintUsdc(fixture.admin.publicKey, micros);
    const run = fixture.harness.send(
      [venueAccrue(fixture.venue, fixture.admin.publicKey, fixture.usdcMint, micros)],
      [fixture.admin],
    );
    expect(run.error).toBeUndefined();
  };

  describe('set_fee_config', () => {
    it('takes the admin only, and no skim above the registry maximum of 1000 bps', () => {
      const { routerProgram, admin } = fixture;
      const intruder = fixture.harness.keypair();
      expectRefused(
        send([setFeeConfig(routerProgram, intruder.publicKey, 0, intruder.publicKey)], [intruder]),
        10,
      );
      expectRefused(
        send([setFeeConfig(routerProgram, admin.publicKey, 1001, admin.publicKey)], [admin]),
        22,
      );
      const run = send(
        [setFeeConfig(routerProgram, admin.publicKey, 1000, fixture.treasury.publicKey)],
        [admin],
      );
      expect(run.error).toBeUndefined();
      const registry = Buffer.from(fixture.harness.data(registryPda(routerProgram)) ?? []);
      expect(registry.readBigUInt64LE(24 + 16 * 72)).toBe(1000n);
    });

    it('refuses venue legs while the registry has no treasury', () => {
      const key = registryPda(fixture.routerProgram);
      const account = fixture.harness.svm.getAccount(address(key));
      if (!account.exists) throw new Error('no registry');
      const data = Buffer.from(account.data);
      data.fill(0, 24 + 16 * 72);
      fixture.harness.svm.setAccount({ ...account, data: new Uint8Array(data) });
      expectRefused(leg('deposit_to_venue', 1_000_000n), 23);
    });
  });

  describe('principal and skim', () => {
    it('deposit → yield → withdraw everything: the treasury holds the skim, the owner the rest', () => {
      expect(leg('deposit_to_venue', 40_000_000n).error).toBeUndefined();
      expect(position(owner)).toEqual({ principal: 40_000_000n, shares: 40_000_000n });
      accrue(4_000_000n);

      // Half out: 20 of 40 receipts carry 20 USDC of principal and 2 USDC of yield.
      const half = leg('withdraw_from_venue', 22_000_000n);
      expect(half.error).toBeUndefined();
      expect(programLogs(half)).toContain(`svc:plan_${hex(planId)} venue_skim amount=100000`);
      expect(treasury()).toBe(100_000n);
      expect(position(owner)).toEqual({ principal: 20_000_000n, shares: 20_000_000n });

      const rest = leg('withdraw_from_venue', 22_000_000n);
      expect(rest.error).toBeUndefined();
      expect(programLogs(rest)).toContain(`svc:plan_${hex(planId)} venue_skim yield=2000000`);
      expect(receiptsOf(owner)).toBe(0n);
      expect(position(owner)).toEqual({ principal: 0n, shares: 0n });
      // 5% of 4 USDC of yield; principal + 95% of the yield back to the owner.
      expect(treasury()).toBe(200_000n);
      expect(usdcOf(owner)).toBe(100_000_000n + 4_000_000n - 200_000n);
    });

    it('takes nothing when there is no yield, and rounds the skim down', () => {
      expect(leg('deposit_to_venue', 10_000_000n).error).toBeUndefined();
      expect(leg('withdraw_from_venue', 5_000_000n).error).toBeUndefined();
      expect(treasury()).toBe(0n);
      accrue(39n); // 39 micros of yield on the remaining 5 USDC (sole depositor)
      expect(leg('withdraw_from_venue', 5_000_039n).error).toBeUndefined();
      expect(treasury()).toBe(1n); // floor(39 × 500 / 10000)
      expect(usdcOf(owner)).toBe(100_000_038n);
    });

    it('a second deposit at a higher price keeps the earned yield skimmable', () => {
      expect(leg('deposit_to_venue', 40_000_000n).error).toBeUndefined();
      accrue(4_000_000n); // price 1.1
      expect(leg('deposit_to_venue', 11_000_000n).error).toBeUndefined();
      expect(position(owner)).toEqual({ principal: 51_000_000n, shares: 50_000_000n });
      expect(leg('withdraw_from_venue', 55_000_000n).error).toBeUndefined();
      expect(treasury()).toBe(200_000n);
      expect(usdcOf(owner)).toBe(100_000_000n + 4_000_000n - 200_000n);
    });
  });

  describe("the owner cannot take the protocol's share out through the router", () => {
    beforeEach(() => {
      expect(leg('deposit_to_venue', 40_000_000n).error).toBeUndefined();
      accrue(4_000_000n);
    });

    it('paying the skim to an account that is not the treasury is refused', () => {
      const own = ata(owner.publicKey, fixture.usdcMint);
      expectRefused(leg('withdraw_from_venue', 44_000_000n, owner, { treasury: own }), 24);
      const stranger = fixture.owner(0n);
      const theirs = ata(stranger.publicKey, fixture.usdcMint);
      fixture.mintUsdc(stranger.publicKey, 1n);
      expectRefused(leg('withdraw_from_venue', 44_000_000n, owner, { treasury: theirs }), 24);
      expect(receiptsOf(owner)).toBe(40_000_000n);
    });

    it('receipts moved to a fresh wallet do not leave through the router', () => {
      const accomplice = fixture.owner(1n);
      const move = fixture.harness.send(
        [
          createAssociatedTokenAccountIdempotentInstruction(
            owner.publicKey,
            ata(accomplice.publicKey, fixture.venue.receiptMint),
            accomplice.publicKey,
            fixture.venue.receiptMint,
          ),
          createTransferInstruction(
            ata(owner.publicKey, fixture.venue.receiptMint),
            ata(accomplice.publicKey, fixture.venue.receiptMint),
            owner.publicKey,
            40_000_000n,
          ),
        ],
        [owner],
      );
      expect(move.error).toBeUndefined();
      // No venue position: nothing recorded to take out.
      expectRefused(leg('withdraw_from_venue', 44_000_000n, accomplice), 15);
      // With a position of its own (20 receipts), the accomplice still takes out only those 20,
      // never the 40 it was sent.
      fixture.mintUsdc(accomplice.publicKey, 22_000_000n);
      expect(leg('deposit_to_venue', 22_000_000n, accomplice).error).toBeUndefined();
      expectRefused(leg('withdraw_from_venue', 44_000_000n, accomplice), 15);
      expect(treasury()).toBe(0n);
    });

    it("another owner's venue position is refused", () => {
      const other = fixture.owner(10_000_000n);
      expect(leg('deposit_to_venue', 10_000_000n, other).error).toBeUndefined();
      const instruction = routerVenueLeg('withdraw_from_venue', {
        programId: fixture.routerProgram,
        owner: owner.publicKey,
        usdcMint: fixture.usdcMint,
        amount: 44_000_000n,
        planId,
        venue: fixture.venue,
        treasury: fixture.treasuryUsdc,
      });
      const swapped = new TransactionInstruction({
        ...instruction,
        keys: instruction.keys.map((meta, index) =>
          index === 6
            ? {
                ...meta,
                pubkey: venuePositionPda(
                  fixture.routerProgram,
                  other.publicKey,
                  fixture.venue.venue,
                ),
              }
            : meta,
        ),
      });
      expectRefused(send([swapped], [owner]), 16);
    });
  });
});
