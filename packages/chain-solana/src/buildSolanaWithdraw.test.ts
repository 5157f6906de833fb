import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY, SystemProgram } from '@solana/web3.js';
import { Keypair } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import { MEMO_PROGRAM_ID } from './instructions/planMemo';
import { decodeRouterInstructionData } from './instructions/routerInstructionData';
import { routerPosition, routerVenuePosition } from './instructions/routerInstructions';
import { bedAdapter, legTransaction, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';
import { TEST_VENUE_ID } from './testing/withTestVenueProtocol';

// The router's generic venue path, through our test venue's layout (a fixture, not a catalog venue).
jest.mock('./venues/solanaVenueProtocols', () =>
  jest.requireActual('./testing/withTestVenueProtocol').withTestVenueProtocol(),
);

let bed: RouterBed;
beforeAll(async () => {
  bed = await startRouterBed();
});
afterAll(() => bed.stop());

const venue: VenueOnChain = {
  venueId: TEST_VENUE_ID,
  chain: 'solana',
  standard: 'router-adapter',
  ids: {
    adapter: Keypair.generate().publicKey.toBase58(),
    receiptMint: Keypair.generate().publicKey.toBase58(),
    venueProgram: Keypair.generate().publicKey.toBase58(),
    reserve: Keypair.generate().publicKey.toBase58(),
  },
};

function request(owner: PublicKey, overrides: Partial<LegRequest> = {}): LegRequest {
  return {
    planId: newPlanId(),
    owner: owner.toBase58(),
    amountMicros: 750_000n,
    target: { kind: 'router' },
    ...overrides,
  };
}

const ata = (holder: PublicKey | string, mint: PublicKey | string) =>
  getAssociatedTokenAddressSync(new PublicKey(mint), new PublicKey(holder), true).toBase58();

describe('buildWithdraw', () => {
  it('calls the router program withdraw after creating the owner USDC account', async () => {
    const owner = Keypair.generate().publicKey;
    const built = request(owner);
    const leg = onlyLeg(await bedAdapter(bed).buildWithdraw(built));
    expect(leg).toMatchObject({ action: 'withdraw', settles: true, amountMicros: 750_000n });

    const transaction = legTransaction(leg);
    const message = transaction.message;
    const keys = message.getAccountKeys();
    const [create, withdraw, memo, ...rest] = message.compiledInstructions;
    expect(rest).toEqual([]);
    expect(keys.get(create?.programIdIndex ?? -1)?.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true);
    expect(keys.get(create?.accountKeyIndexes[1] ?? -1)?.toBase58()).toBe(ata(owner, bed.usdcMint));

    expect(keys.get(withdraw?.programIdIndex ?? -1)?.toBase58()).toBe(bed.router.programId);
    expect(decodeRouterInstructionData(withdraw?.data ?? new Uint8Array())).toEqual({
      name: 'withdraw',
      amountMicros: 750_000n,
      planId: built.planId,
    });
    expect(
      withdraw?.accountKeyIndexes.map((index) => [
        keys.get(index)?.toBase58(),
        message.isAccountSigner(index),
        message.isAccountWritable(index),
      ]),
    ).toEqual([
      [owner.toBase58(), true, true],
      [bed.router.yieldRouter, false, true],
      [ata(bed.router.yieldRouter, bed.usdcMint), false, true],
      [ata(owner, bed.usdcMint), false, true],
      [bed.usdcMint, false, false],
      [TOKEN_PROGRAM_ID.toBase58(), false, false],
      [routerPosition(new PublicKey(bed.router.programId), owner).toBase58(), false, true],
      [SYSVAR_INSTRUCTIONS_PUBKEY.toBase58(), false, false],
    ]);
    expect(keys.get(memo?.programIdIndex ?? -1)?.equals(MEMO_PROGRAM_ID)).toBe(true);
    expect(Buffer.from(memo?.data ?? []).toString()).toBe(`svc:${built.planId}`);
  });

  it('calls withdraw_from_venue for a router-adapter venue', async () => {
    const owner = Keypair.generate().publicKey;
    const built = request(owner, { target: { kind: 'venue', venue } });
    const transaction = legTransaction(onlyLeg(await bedAdapter(bed).buildWithdraw(built)));
    const keys = transaction.message.getAccountKeys();
    const withdraw = transaction.message.compiledInstructions[1];
    expect(decodeRouterInstructionData(withdraw?.data ?? new Uint8Array())).toEqual({
      name: 'withdraw_from_venue',
      amountMicros: 750_000n,
      planId: built.planId,
    });
    // The router's fixed accounts, then the test venue's `withdraw` accounts in its order.
    expect(withdraw?.accountKeyIndexes.map((index) => keys.get(index)?.toBase58())).toEqual([
      owner.toBase58(),
      bed.router.yieldRouter,
      bed.router.adapterRegistry,
      venue.ids['adapter'],
      venue.ids['venueProgram'],
      SYSVAR_INSTRUCTIONS_PUBKEY.toBase58(),
      routerVenuePosition(
        new PublicKey(bed.router.programId),
        owner,
        new PublicKey(venue.ids['adapter'] ?? ''),
      ).toBase58(),
      bed.router.treasuryUsdc,
      TOKEN_PROGRAM_ID.toBase58(),
      SystemProgram.programId.toBase58(),
      owner.toBase58(),
      venue.ids['adapter'],
      ata(owner, bed.usdcMint),
      venue.ids['reserve'],
      ata(owner, venue.ids['receiptMint'] ?? ''),
      venue.ids['receiptMint'],
      bed.usdcMint,
      TOKEN_PROGRAM_ID.toBase58(),
    ]);
  });

  it('is blocked without the router program id', async () => {
    const build = await bedAdapter(bed, { programId: undefined }).buildWithdraw(
      request(Keypair.generate().publicKey),
    );
    expect(build).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'router_not_configured', field: 'programId' }],
    });
  });

  it('runs in the bed, where the router program refuses an owner with no position (15)', async () => {
    const owner = bed.createFundedKeypair();
    const leg = onlyLeg(await bedAdapter(bed).buildWithdraw(request(owner.publicKey)));
    const result = await bedAdapter(bed).broadcast({ transaction: signLeg(leg, owner) });
    expect(result).toEqual({
      status: 'rejected',
      reason: expect.stringContaining('custom program error: 0xf'),
    });
  });
});
