import { Keypair } from '@solana/web3.js';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter } from '@yieldrouter/schemas';
import { bedAdapter, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
let adapter: ChainAdapter;
beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed, { broadcastEnabled: true });
});
afterAll(() => bed.stop());

/** The owner's wallet: build → sign locally → broadcast through the adapter. */
async function transfer(
  owner: ReturnType<RouterBed['createFundedKeypair']>,
  recipient: string,
  amountMicros: bigint,
) {
  const planId = newPlanId();
  const leg = onlyLeg(
    await adapter.buildTransfer({
      planId,
      owner: owner.publicKey.toBase58(),
      recipient,
      amountMicros,
    }),
  );
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  return { planId, leg, txId: submitted.txId };
}

describe('a Solana transfer leg (auto-pay payouts), end to end', () => {
  it('creates the payee account, moves exactly the amount, and is read back from the balances', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 5_000_000n);
    // A payee that never held USDC: the leg creates its account (the owner pays the rent).
    const payee = Keypair.generate().publicKey.toBase58();
    const { planId, leg, txId } = await transfer(owner, payee, 1_234_567n);
    expect(leg).toMatchObject({
      action: 'transfer',
      settles: true,
      amountMicros: 1_234_567n,
      summary: expect.stringContaining('1.234567 USDC'),
    });
    const query = { txId, planId, owner: owner.publicKey.toBase58(), recipient: payee };
    expect(await adapter.readTransferReceipt(query)).toEqual({
      status: 'confirmed',
      txId,
      planId,
      amountMicros: 1_234_567n,
      shares: null,
      block: String(bed.transaction(txId)?.slot),
    });
    expect(bed.usdcBalance(payee)).toBe(1_234_567n);
    expect(bed.usdcBalance(owner.publicKey)).toBe(5_000_000n - 1_234_567n);

    // The same transaction read for another payee, owner or plan is not that leg's.
    const other = Keypair.generate().publicKey.toBase58();
    expect(await adapter.readTransferReceipt({ ...query, recipient: other })).toMatchObject({
      status: 'mismatch',
      reason: expect.stringContaining('no USDC reached'),
    });
    expect(await adapter.readTransferReceipt({ ...query, owner: other })).toMatchObject({
      status: 'mismatch',
    });
    expect(await adapter.readTransferReceipt({ ...query, planId: newPlanId() })).toMatchObject({
      status: 'mismatch',
      reason: expect.stringContaining('no memo'),
    });
  });

  it('a recipient that is not a Solana key is refused before anything is built', async () => {
    const owner = bed.createFundedKeypair();
    await expect(
      adapter.buildTransfer({
        planId: newPlanId(),
        owner: owner.publicKey.toBase58(),
        recipient: '0x1111111111111111111111111111111111111111',
        amountMicros: 1n,
      }),
    ).rejects.toMatchObject({ field: 'recipient' });
  });
});
