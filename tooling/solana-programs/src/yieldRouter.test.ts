import { randomBytes } from 'node:crypto';
import { Keypair, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import type { AccountMeta, PublicKey } from '@solana/web3.js';
import { ensureProgramsBuilt } from './ensureProgramsBuilt';
import { loadProgram } from './loadProgram';
import { ProgramHarness, address, programLogs } from './testing/programHarness';
import type { ProgramRun } from './testing/programHarness';
import { createProgramFixture } from './testing/programFixture';
import type { ProgramFixture } from './testing/programFixture';
import {
  ata,
  initializeRouter,
  legData,
  planMemo,
  positionPda,
  programDataAddress,
  registerAdapter,
  registryPda,
  routerDeposit,
  routerPda,
  routerVenueCall,
  routerVenueLeg,
  routerWithdraw,
  testVenueAccounts,
  VENUE_LAYOUT,
} from './programInstructions';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const custom = (code: number) => `Custom(${code})`;

function expectRefused(run: ProgramRun, code: number): void {
  expect(run.ok).toBe(false);
  expect(run.error).toContain(custom(code));
}

describe('yield_router program', () => {
  let fixture: ProgramFixture;
  let owner: Keypair;
  let planId: Uint8Array;
  beforeEach(() => {
    fixture = createProgramFixture();
    owner = fixture.owner(100_000_000n);
    planId = randomBytes(16);
  });

  /** Sends the instructions with the plan memo `svc:<planId>` every leg carries. */
  const send = (instructions: TransactionInstruction[], signers?: Keypair[]) =>
    fixture.harness.send([...instructions, planMemo(planId)], signers);

  const leg = (amount: bigint, extra: Partial<Parameters<typeof routerDeposit>[0]> = {}) => ({
    programId: fixture.routerProgram,
    owner: owner.publicKey,
    usdcMint: fixture.usdcMint,
    amount,
    planId,
    ...extra,
  });
  const venueLeg = (amount: bigint, extra: Partial<Parameters<typeof routerVenueLeg>[1]> = {}) => ({
    ...leg(amount),
    venue: fixture.venue,
    treasury: fixture.treasuryUsdc,
    ...extra,
  });
  const usdcOf = (key: Keypair) => fixture.tokenBalance(ata(key.publicKey, fixture.usdcMint));
  const receiptsOf = (key: Keypair) =>
    fixture.tokenBalance(ata(key.publicKey, fixture.venue.receiptMint));
  const vault = () => ata(routerPda(fixture.routerProgram), fixture.usdcMint);

  describe('initialize and register_adapter (operator only)', () => {
    it('creates the router and registry PDAs once, recording the admin', () => {
      const router = fixture.harness.data(routerPda(fixture.routerProgram));
      expect(
        Buffer.from(router ?? [])
          .subarray(0, 8)
          .toString(),
      ).toBe('YRROUTER');
      expect(hex((router ?? new Uint8Array()).subarray(8, 40))).toBe(
        hex(fixture.admin.publicKey.toBytes()),
      );
      const registry = fixture.harness.data(registryPda(fixture.routerProgram));
      expect(Buffer.from(registry ?? []).readBigUInt64LE(16)).toBe(1n);
      const again = send(
        [initializeRouter(fixture.routerProgram, fixture.admin.publicKey)],
        [fixture.admin],
      );
      expectRefused(again, 11);
    });

    it('accepts only the upgrade authority as the admin who initialises', () => {
      const harness = new ProgramHarness();
      const authority = harness.keypair();
      const intruder = harness.keypair();
      const programId = Keypair.generate().publicKey;
      loadProgram(harness.svm, programId, ensureProgramsBuilt().yield_router, authority.publicKey);
      expectRefused(
        harness.send([initializeRouter(programId, intruder.publicKey)], [intruder]),
        10,
      );
      // A ProgramData account that is not this program's is refused the same way.
      const forged = initializeRouter(programId, authority.publicKey);
      const other = Keypair.generate().publicKey;
      loadProgram(harness.svm, other, ensureProgramsBuilt().yield_router, authority.publicKey);
      const keys = forged.keys.map((meta, index) =>
        index === 5 ? { ...meta, pubkey: programDataAddress(other) } : meta,
      );
      expectRefused(
        harness.send([new TransactionInstruction({ ...forged, keys })], [authority]),
        10,
      );
      const run = harness.send([initializeRouter(programId, authority.publicKey)], [authority]);
      expect(run.error).toBeUndefined();
      expect(programLogs(run)).toContain('yield_router: initialized');
    });

    it('refuses a registration not signed by the admin', () => {
      const intruder = fixture.harness.keypair();
      const run = send(
        [
          registerAdapter(
            fixture.routerProgram,
            intruder.publicKey,
            intruder.publicKey,
            fixture.venue.program,
            VENUE_LAYOUT.testVenue,
          ),
        ],
        [intruder],
      );
      expectRefused(run, 10);
    });

    it('refuses a layout id this build of the router does not speak', () => {
      const unknown = registerAdapter(
        fixture.routerProgram,
        fixture.admin.publicKey,
        fixture.venue.reserve,
        fixture.venue.program,
        VENUE_LAYOUT.testVenue,
      );
      const data = Buffer.from(unknown.data);
      data[72] = 200;
      expectRefused(send([new TransactionInstruction({ ...unknown, data })], [fixture.admin]), 21);
    });
  });

  describe('deposit and withdraw (the router vault)', () => {
    it('moves USDC into the vault, credits the position, and pays it back signed by the PDA', () => {
      const run = send([routerDeposit(leg(30_000_000n))], [owner]);
      expect(run.error).toBeUndefined();
      expect(programLogs(run)).toContain(`svc:plan_${hex(planId)} deposit amount=30000000`);
      expect(fixture.tokenBalance(vault())).toBe(30_000_000n);
      expect(usdcOf(owner)).toBe(70_000_000n);
      const position = fixture.harness.data(positionPda(fixture.routerProgram, owner.publicKey));
      expect(Buffer.from(position ?? []).readBigUInt64LE(48)).toBe(30_000_000n);

      const back = send([routerWithdraw(leg(12_000_000n))], [owner]);
      expect(back.error).toBeUndefined();
      expect(programLogs(back)).toContain(`svc:plan_${hex(planId)} withdraw amount=12000000`);
      expect(fixture.tokenBalance(vault())).toBe(18_000_000n);
      expect(usdcOf(owner)).toBe(82_000_000n);
    });

    it('opens the position even when someone sent lamports to its address first', () => {
      const position = positionPda(fixture.routerProgram, owner.publicKey);
      const griefer = fixture.harness.keypair();
      const gift = SystemProgram.transfer({
        fromPubkey: griefer.publicKey,
        toPubkey: position,
        lamports: 1_000_000,
      });
      expect(fixture.harness.send([gift], [griefer]).ok).toBe(true);
      const run = send([routerDeposit(leg(4_000_000n))], [owner]);
      expect(run.error).toBeUndefined();
      expect(Buffer.from(fixture.harness.data(position) ?? []).readBigUInt64LE(48)).toBe(
        4_000_000n,
      );
    });

    it("refuses to pay more than the owner's position, and another owner anything", () => {
      expect(send([routerDeposit(leg(5_000_000n))], [owner]).ok).toBe(true);
      expectRefused(send([routerWithdraw(leg(5_000_001n))], [owner]), 15);
      const other = fixture.owner(1_000_000n);
      const theft = send([routerWithdraw({ ...leg(1_000_000n), owner: other.publicKey })], [other]);
      expectRefused(theft, 15);
      expect(fixture.tokenBalance(vault())).toBe(5_000_000n);
    });
  });

  describe('deposit_to_venue and withdraw_from_venue', () => {
    it('routes USDC from the owner into the registered venue and back, receipts to the owner', () => {
      const run = send([routerVenueLeg('deposit_to_venue', venueLeg(40_000_000n))], [owner]);
      expect(run.error).toBeUndefined();
      expect(programLogs(run)).toContain(
        `svc:plan_${hex(planId)} deposit_to_venue amount=40000000`,
      );
      expect(usdcOf(owner)).toBe(60_000_000n);
      expect(receiptsOf(owner)).toBe(40_000_000n);
      expect(fixture.tokenBalance(fixture.venue.reserve)).toBe(40_000_000n);
      expect(fixture.tokenBalance(vault())).toBe(0n);

      const back = send([routerVenueLeg('withdraw_from_venue', venueLeg(15_000_000n))], [owner]);
      expect(back.error).toBeUndefined();
      expect(programLogs(back)).toContain(
        `svc:plan_${hex(planId)} withdraw_from_venue amount=15000000`,
      );
      expect(usdcOf(owner)).toBe(75_000_000n);
      expect(receiptsOf(owner)).toBe(25_000_000n);
    });
  });

  describe('refusals', () => {
    const deposit = (
      extra: Partial<Parameters<typeof routerVenueLeg>[1]> = {},
      signers = [owner],
    ) => send([routerVenueLeg('deposit_to_venue', venueLeg(1_000_000n, extra))], signers);

    it('wrong signer: the owner did not sign', () => {
      const instruction = routerVenueLeg('deposit_to_venue', venueLeg(1_000_000n));
      // The owner is the router's account 0 and the protocol's signer: unsigned in both.
      const unsigned = new TransactionInstruction({
        ...instruction,
        keys: instruction.keys.map((meta) =>
          meta.pubkey.equals(owner.publicKey) ? { ...meta, isSigner: false } : meta,
        ),
      });
      expectRefused(send([unsigned]), 3);
      const withdrawal = routerWithdraw(leg(1_000_000n));
      expectRefused(
        send([
          new TransactionInstruction({
            ...withdrawal,
            keys: withdrawal.keys.map((meta, index) =>
              index === 0 ? { ...meta, isSigner: false } : meta,
            ),
          }),
        ]),
        3,
      );
    });

    it("wrong signer: someone else signs for the owner's USDC", () => {
      const other = fixture.owner(0n);
      expectRefused(
        deposit({ owner: other.publicKey, ownerUsdc: ata(owner.publicKey, fixture.usdcMint) }, [
          other,
        ]),
        13,
      );
    });

    it('wrong plan id: zero, or not 16 bytes', () => {
      expectRefused(deposit({ planId: new Uint8Array(16) }), 2);
      expectRefused(deposit({ planId: randomBytes(15) }), 2);
      expectRefused(
        send([routerDeposit(leg(1_000_000n, { planId: randomBytes(17) }))], [owner]),
        2,
      );
    });

    it('no plan memo, or the memo of another plan', () => {
      const instruction = routerVenueLeg('deposit_to_venue', venueLeg(1_000_000n));
      expectRefused(fixture.harness.send([instruction], [owner]), 18);
      expectRefused(fixture.harness.send([instruction, planMemo(randomBytes(16))], [owner]), 18);
      const withdrawal = routerWithdraw(leg(1_000_000n));
      expectRefused(fixture.harness.send([withdrawal], [owner]), 18);
      // The sysvar account must be the Instructions sysvar itself.
      const forged = new TransactionInstruction({
        ...instruction,
        keys: instruction.keys.map((meta, index) =>
          index === 5 ? { ...meta, pubkey: fixture.venue.reserve } : meta,
        ),
      });
      expectRefused(fixture.harness.send([forged, planMemo(planId)], [owner]), 18);
    });

    it('zero amount', () => {
      expectRefused(deposit({ amount: 0n }), 8);
      expectRefused(send([routerWithdraw(leg(0n))], [owner]), 8);
    });

    it('foreign vault: a USDC account the router PDA does not own', () => {
      const foreign = ata(owner.publicKey, fixture.usdcMint);
      expectRefused(send([routerDeposit(leg(1_000_000n, { vault: foreign }))], [owner]), 6);
    });

    /** The test venue's accounts with one replaced (index in the protocol's list). */
    const venueCall = (replace: (accounts: AccountMeta[]) => AccountMeta[]) =>
      routerVenueCall('deposit_to_venue', {
        programId: fixture.routerProgram,
        owner: owner.publicKey,
        amount: 1_000_000n,
        planId,
        adapter: fixture.venue.venue,
        venueProgram: fixture.venue.program,
        treasury: fixture.treasuryUsdc,
        venueAccounts: replace(testVenueAccounts(fixture.venue, owner.publicKey, fixture.usdcMint)),
      });
    const at = (index: number, pubkey: PublicKey) => (accounts: AccountMeta[]) =>
      accounts.map((meta, i) => (i === index ? { ...meta, pubkey } : meta));

    it('foreign reserve: the protocol account at the layout index is not the registered one', () => {
      const other = createProgramFixture();
      expectRefused(send([venueCall(at(1, other.venue.venue))], [owner]), 19);
      expect(usdcOf(owner)).toBe(100_000_000n);
    });

    it("another owner's token account in the protocol's list", () => {
      const victim = fixture.owner(5_000_000n);
      expectRefused(send([venueCall(at(2, ata(victim.publicKey, fixture.usdcMint)))], [owner]), 13);
      expectRefused(
        send([venueCall(at(4, ata(victim.publicKey, fixture.venue.receiptMint)))], [owner]),
        13,
      );
      expect(usdcOf(victim)).toBe(5_000_000n);
    });

    it('wrong accounts: too few or too many, or the owner not where the protocol wants its signer', () => {
      expectRefused(send([venueCall((accounts) => accounts.slice(0, 7))], [owner]), 20);
      expectRefused(
        send([venueCall((accounts) => [...accounts, accounts[0] as AccountMeta])], [owner]),
        20,
      );
      const other = fixture.owner(1_000_000n);
      expectRefused(send([venueCall(at(0, other.publicKey))], [owner, other]), 20);
    });

    it('unlisted adapter, and a venue program other than the registered one', () => {
      const unlisted = createProgramFixture({ register: false });
      const stranger = unlisted.owner(5_000_000n);
      const run = unlisted.harness.send(
        [
          planMemo(planId),
          routerVenueLeg('deposit_to_venue', {
            programId: unlisted.routerProgram,
            owner: stranger.publicKey,
            usdcMint: unlisted.usdcMint,
            amount: 1_000_000n,
            planId,
            venue: unlisted.venue,
            treasury: unlisted.treasuryUsdc,
          }),
        ],
        [stranger],
      );
      expectRefused(run, 7);
      expectRefused(deposit({ venue: { ...fixture.venue, program: fixture.routerProgram } }), 14);
    });

    it('overflow: a lifetime total that would pass 2^64 - 1 refuses the leg', () => {
      const router = routerPda(fixture.routerProgram);
      const account = fixture.harness.svm.getAccount(address(router));
      if (!account.exists) throw new Error('no router');
      const data = Buffer.from(account.data);
      data.writeBigUInt64LE((1n << 64n) - 2n, 56); // USDC routed into venues so far
      fixture.harness.svm.setAccount({ ...account, data: new Uint8Array(data) });
      expectRefused(deposit(), 9);
      expect(usdcOf(owner)).toBe(100_000_000n);
    });

    it('unknown instructions and truncated data', () => {
      const run = send([
        new TransactionInstruction({
          programId: fixture.routerProgram,
          keys: [],
          data: legData('no_such_instruction', 1n, planId),
        }),
      ]);
      expectRefused(run, 1);
    });
  });
});
