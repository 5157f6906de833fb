import { Keypair } from '@solana/web3.js';
import { closedPortUrl } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { LegRequest } from '@yieldrouter/schemas';
import { bedAdapter, legTransaction, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
beforeAll(async () => {
  bed = await startRouterBed();
});
afterAll(() => bed.stop());

function deposit(owner: Keypair, amountMicros: bigint): LegRequest {
  return {
    planId: newPlanId(),
    owner: owner.publicKey.toBase58(),
    amountMicros,
    target: { kind: 'router' },
  };
}

async function signedDeposit(owner: Keypair, amountMicros: bigint): Promise<string> {
  return signLeg(onlyLeg(await bedAdapter(bed).buildDeposit(deposit(owner, amountMicros))), owner);
}

describe('broadcast', () => {
  it('is refused with broadcast_disabled when broadcast is off, and nothing is sent', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const transaction = await signedDeposit(owner, 1_000_000n);
    const off = bedAdapter(bed, { broadcastEnabled: false });
    expect(await off.broadcast({ transaction })).toEqual({
      status: 'refused',
      blocker: expect.objectContaining({ code: 'broadcast_disabled' }),
    });
    expect(bed.usdcBalance(owner.publicKey)).toBe(1_000_000n);
  });

  it('submits an owner-signed transaction and returns its signature', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 2_000_000n);
    const transaction = await signedDeposit(owner, 2_000_000n);
    const result = await bedAdapter(bed).broadcast({ transaction });
    if (result.status !== 'submitted') throw new Error(JSON.stringify(result));
    expect(bed.transaction(result.txId)?.err).toBeNull();
    expect(bed.usdcBalance(owner.publicKey)).toBe(0n);
  });

  it('rejects an unsigned or wrongly signed transaction without calling the RPC', async () => {
    const owner = bed.createFundedKeypair();
    const leg = onlyLeg(await bedAdapter(bed).buildDeposit(deposit(owner, 5n)));
    const offline = bedAdapter(bed, { rpcUrl: await closedPortUrl() });
    if (leg.payload.encoding !== 'solana-v0-base64') throw new Error('wrong encoding');
    expect(await offline.broadcast({ transaction: leg.payload.transaction })).toEqual({
      status: 'rejected',
      reason: expect.stringContaining('missing signature'),
    });

    const forged = legTransaction(leg);
    forged.addSignature(owner.publicKey, Keypair.generate().secretKey.subarray(0, 64));
    const bytes = Buffer.from(forged.serialize()).toString('base64');
    expect(await offline.broadcast({ transaction: bytes })).toEqual({
      status: 'rejected',
      reason: expect.stringContaining('does not verify'),
    });
  });

  it('rejects with the node reason when preflight fails (more USDC than the owner holds)', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10n);
    const result = await bedAdapter(bed).broadcast({
      transaction: await signedDeposit(owner, 11n),
    });
    expect(result).toEqual({
      status: 'rejected',
      reason: expect.stringContaining('custom program error: 0x1'),
    });
  });

  it('rejects a transaction the chain already processed', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10n);
    const transaction = await signedDeposit(owner, 10n);
    expect(await bedAdapter(bed).broadcast({ transaction })).toMatchObject({ status: 'submitted' });
    expect(await bedAdapter(bed).broadcast({ transaction })).toMatchObject({ status: 'rejected' });
  });

  it('is unavailable when the RPC is down', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 10n);
    const transaction = await signedDeposit(owner, 10n);
    const down = bedAdapter(bed, { rpcUrl: await closedPortUrl() });
    expect(await down.broadcast({ transaction })).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
  });

  it('throws InvalidChainInputError for bytes that are not a Solana transaction', async () => {
    const adapter = bedAdapter(bed);
    for (const transaction of ['', 'not base64!', Buffer.from('hello').toString('base64')]) {
      await expect(adapter.broadcast({ transaction })).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'transaction',
      });
    }
  });
});
