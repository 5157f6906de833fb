import { createHash } from 'node:crypto';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY, SystemProgram } from '@solana/web3.js';
import type { VersionedTransaction } from '@solana/web3.js';
import { closedPortUrl, startSilentServer } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest, VenueOnChain } from '@yieldrouter/schemas';
import { MEMO_PROGRAM_ID } from './instructions/planMemo';
import { decodeRouterInstructionData } from './instructions/routerInstructionData';
import { routerVenuePosition } from './instructions/routerInstructions';
import { bedAdapter, legTransaction, onlyLeg, startRouterBed } from './testing/bedAdapter';
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

const owner = Keypair.generate().publicKey;
const adapterKey = Keypair.generate().publicKey;
const receiptMint = Keypair.generate().publicKey;
const venueProgram = Keypair.generate().publicKey;
const reserve = Keypair.generate().publicKey;

// A venue that speaks our test venue's layout (`test-venue`, see the mock above).
const venue: VenueOnChain = {
  venueId: TEST_VENUE_ID,
  chain: 'solana',
  standard: 'router-adapter',
  ids: {
    adapter: adapterKey.toBase58(),
    receiptMint: receiptMint.toBase58(),
    venueProgram: venueProgram.toBase58(),
    reserve: reserve.toBase58(),
  },
};

function request(overrides: Partial<LegRequest> = {}): LegRequest {
  return {
    planId: newPlanId(),
    owner: owner.toBase58(),
    amountMicros: 1_500_000n,
    target: { kind: 'router' },
    ...overrides,
  };
}

/** [programId, account keys with flags, data] of every instruction of a built transaction. */
function instructionsOf(transaction: VersionedTransaction) {
  const message = transaction.message;
  const keys = message.getAccountKeys();
  return message.compiledInstructions.map((instruction) => ({
    programId: keys.get(instruction.programIdIndex)?.toBase58(),
    accounts: instruction.accountKeyIndexes.map((index) => ({
      key: keys.get(index)?.toBase58(),
      signer: message.isAccountSigner(index),
      writable: message.isAccountWritable(index),
    })),
    data: Buffer.from(instruction.data),
  }));
}

/** The instruction calls our router program's `name` (Anchor discriminator) for the leg. */
function expectRouterCall(
  instruction: ReturnType<typeof instructionsOf>[number] | undefined,
  name: string,
  amountMicros: bigint,
  planId: string,
) {
  expect(instruction?.programId).toBe(bed.router.programId);
  expect(instruction?.data.subarray(0, 8)).toEqual(
    createHash('sha256').update(`global:${name}`).digest().subarray(0, 8),
  );
  expect(decodeRouterInstructionData(instruction?.data ?? Buffer.alloc(0))).toEqual({
    name,
    amountMicros,
    planId,
  });
}

const usdc = () => new PublicKey(bed.usdcMint);
const ata = (holder: PublicKey | string, mint: PublicKey) =>
  getAssociatedTokenAddressSync(mint, new PublicKey(holder), true).toBase58();

describe('buildDeposit into the router', () => {
  it("builds an unsigned v0 call of the router program's deposit (not a token transfer) with a plan memo", async () => {
    const built = request();
    const leg = onlyLeg(await bedAdapter(bed).buildDeposit(built));
    if (leg.payload.encoding !== 'solana-v0-base64') throw new Error('wrong encoding');
    expect(Number(leg.payload.lastValidBlockHeight)).toBeGreaterThan(0);

    const transaction = legTransaction(leg);
    expect(transaction.version).toBe(0);
    expect(transaction.message.staticAccountKeys[0]?.equals(owner)).toBe(true);
    expect(transaction.message.recentBlockhash).toBe(bed.latestBlockhash());
    expect(transaction.signatures.every((signature) => signature.every((b) => b === 0))).toBe(true);

    const instructions = instructionsOf(transaction);
    const [createVault, deposit, memo, ...rest] = instructions;
    expect(rest).toEqual([]);
    // No instruction of the token program at the top level: the router moves the USDC itself.
    expect(instructions.map((instruction) => instruction.programId)).not.toContain(
      TOKEN_PROGRAM_ID.toBase58(),
    );
    const vault = ata(bed.router.yieldRouter, usdc());
    expect(createVault?.programId).toBe(ASSOCIATED_TOKEN_PROGRAM_ID.toBase58());
    expect(createVault?.data).toEqual(Buffer.from([1])); // CreateIdempotent
    expect(createVault?.accounts.map((account) => account.key).slice(0, 4)).toEqual([
      owner.toBase58(),
      vault,
      bed.router.yieldRouter,
      bed.usdcMint,
    ]);

    expectRouterCall(deposit, 'deposit', 1_500_000n, built.planId);
    // The C program's order: owner, router PDA, vault, owner USDC, mint, token program, the
    // owner's position PDA, System program (it may create the position), Instructions sysvar.
    const [position] = PublicKey.findProgramAddressSync(
      [Buffer.from('position'), owner.toBuffer()],
      new PublicKey(bed.router.programId),
    );
    expect(deposit?.accounts).toEqual([
      { key: owner.toBase58(), signer: true, writable: true },
      { key: bed.router.yieldRouter, signer: false, writable: true },
      { key: vault, signer: false, writable: true },
      { key: ata(owner, usdc()), signer: false, writable: true },
      { key: bed.usdcMint, signer: false, writable: false },
      { key: TOKEN_PROGRAM_ID.toBase58(), signer: false, writable: false },
      { key: position.toBase58(), signer: false, writable: true },
      { key: SystemProgram.programId.toBase58(), signer: false, writable: false },
      { key: SYSVAR_INSTRUCTIONS_PUBKEY.toBase58(), signer: false, writable: false },
    ]);
    expect(memo?.programId).toBe(MEMO_PROGRAM_ID.toBase58());
    expect(memo?.data.toString('utf8')).toBe(`svc:${built.planId}`);
  });

  it('is blocked when the router program, the router or the USDC mint is not configured', async () => {
    const adapter = bedAdapter(bed, {
      programId: undefined,
      yieldRouter: undefined,
      usdcMint: undefined,
    });
    expect(await adapter.buildDeposit(request())).toEqual({
      status: 'blocked',
      blockers: [
        expect.objectContaining({ code: 'router_not_configured', field: 'programId' }),
        expect.objectContaining({ code: 'router_not_configured', field: 'yieldRouter' }),
        expect.objectContaining({ code: 'asset_not_configured', field: 'usdcMint' }),
      ],
    });
    const malformed = bedAdapter(bed, { yieldRouter: 'not-a-key' });
    expect(await malformed.buildDeposit(request())).toMatchObject({
      status: 'blocked',
      blockers: [
        { code: 'router_not_configured', message: expect.stringContaining('not a valid') },
      ],
    });
  });

  it('is blocked rpc_unavailable without an RPC, when it is down, and when it is silent', async () => {
    const silent = await startSilentServer();
    try {
      const cases = [
        { rpcUrl: undefined, reason: undefined },
        { rpcUrl: await closedPortUrl(), reason: 'rpc_error' },
        { rpcUrl: silent.url, reason: 'rpc_timeout' },
      ];
      for (const { rpcUrl, reason } of cases) {
        const build = await bedAdapter(bed, { rpcUrl, timeoutMs: 300 }).buildDeposit(request());
        expect(build).toEqual({
          status: 'blocked',
          blockers: [
            expect.objectContaining({
              code: 'rpc_unavailable',
              ...(reason ? { details: { reason } } : {}),
            }),
          ],
        });
      }
    } finally {
      await silent.close();
    }
  });

  it('throws InvalidChainInputError for a bad owner, plan id or amount', async () => {
    const adapter = bedAdapter(bed);
    await expect(adapter.buildDeposit(request({ owner: '0xabc' }))).rejects.toMatchObject({
      field: 'owner',
    });
    await expect(adapter.buildDeposit(request({ planId: 'plan_x' }))).rejects.toMatchObject({
      field: 'planId',
    });
    await expect(adapter.buildDeposit(request({ amountMicros: 0n }))).rejects.toMatchObject({
      field: 'amountMicros',
    });
  });
});

describe('buildDeposit into a router-adapter venue', () => {
  it('calls deposit_to_venue on the router program with the documented layout', async () => {
    const built = request({ target: { kind: 'venue', venue }, amountMicros: 9_000_001n });
    const transaction = legTransaction(onlyLeg(await bedAdapter(bed).buildDeposit(built)));
    const [createReceipt, deposit, memo, ...rest] = instructionsOf(transaction);
    expect(rest).toEqual([]);
    expect(createReceipt?.programId).toBe(ASSOCIATED_TOKEN_PROGRAM_ID.toBase58());
    expect(createReceipt?.accounts[1]?.key).toBe(ata(owner, receiptMint));

    expectRouterCall(deposit, 'deposit_to_venue', 9_000_001n, built.planId);
    // The router's fixed accounts, then the test venue's `deposit` accounts in its order (the
    // compiled message merges flags: the adapter is writable for the venue).
    expect(deposit?.accounts).toEqual([
      { key: owner.toBase58(), signer: true, writable: true },
      { key: bed.router.yieldRouter, signer: false, writable: true },
      { key: bed.router.adapterRegistry, signer: false, writable: false },
      { key: adapterKey.toBase58(), signer: false, writable: true },
      { key: venueProgram.toBase58(), signer: false, writable: false },
      { key: SYSVAR_INSTRUCTIONS_PUBKEY.toBase58(), signer: false, writable: false },
      // The owner's venue position (principal and shares the skim is measured against), the
      // treasury's USDC account the registry names, and the programs the router calls.
      {
        key: routerVenuePosition(new PublicKey(bed.router.programId), owner, adapterKey).toBase58(),
        signer: false,
        writable: true,
      },
      { key: bed.router.treasuryUsdc, signer: false, writable: true },
      { key: TOKEN_PROGRAM_ID.toBase58(), signer: false, writable: false },
      { key: SystemProgram.programId.toBase58(), signer: false, writable: false },
      { key: owner.toBase58(), signer: true, writable: true },
      { key: adapterKey.toBase58(), signer: false, writable: true },
      { key: ata(owner, usdc()), signer: false, writable: true },
      { key: reserve.toBase58(), signer: false, writable: true },
      { key: ata(owner, receiptMint), signer: false, writable: true },
      { key: receiptMint.toBase58(), signer: false, writable: true },
      { key: bed.usdcMint, signer: false, writable: false },
      { key: TOKEN_PROGRAM_ID.toBase58(), signer: false, writable: false },
    ]);
    expect(memo?.data.toString('utf8')).toBe(`svc:${built.planId}`);
  });

  it('is blocked with every missing router and venue id named', async () => {
    const adapter = bedAdapter(bed, { programId: undefined, adapterRegistry: undefined });
    const bare: VenueOnChain = { ...venue, ids: {} };
    const build = await adapter.buildDeposit(request({ target: { kind: 'venue', venue: bare } }));
    if (build.status !== 'blocked') throw new Error('expected blocked');
    expect(build.blockers.map((blocker) => [blocker.code, blocker.field])).toEqual([
      ['router_not_configured', 'programId'],
      ['router_not_configured', 'adapterRegistry'],
      ['venue_not_configured', 'ids.adapter'],
      ['venue_not_configured', 'ids.receiptMint'],
      ['venue_not_configured', 'ids.venueProgram'],
      ['venue_not_configured', 'ids.reserve'],
    ]);
    expect(build.blockers[2]?.details).toEqual({ venueId: venue.venueId });
  });

  // drift is listed, not ready: no protocol adapter speaks it.
  it.each(['no-such-venue', 'drift'])(
    'is blocked venue_not_configured for %s, which no Solana protocol adapter speaks',
    async (venueId) => {
      const unknown: VenueOnChain = { ...venue, venueId };
      expect(
        await bedAdapter(bed).buildDeposit(request({ target: { kind: 'venue', venue: unknown } })),
      ).toMatchObject({
        status: 'blocked',
        blockers: [{ code: 'venue_not_configured', field: 'venueId' }],
      });
    },
  );

  it('is blocked venue_not_configured for a standard Solana does not have', async () => {
    const vault: VenueOnChain = { ...venue, standard: 'erc4626', ids: { vault: 'x' } };
    expect(
      await bedAdapter(bed).buildDeposit(request({ target: { kind: 'venue', venue: vault } })),
    ).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'venue_not_configured', field: 'standard' }],
    });
  });
});
