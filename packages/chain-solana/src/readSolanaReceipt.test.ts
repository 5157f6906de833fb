import { createTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { closedPortUrl } from '@yieldrouter/chain-beds';
import { newPlanId } from '@yieldrouter/schemas';
import type { ChainAdapter, ReceiptQuery } from '@yieldrouter/schemas';
import bs58 from 'bs58';
import { planMemoInstruction } from './instructions/planMemo';
import { bedAdapter, legTransaction, onlyLeg, signLeg, startRouterBed } from './testing/bedAdapter';
import type { RouterBed } from './testing/bedAdapter';

let bed: RouterBed;
let adapter: ChainAdapter;
let landed: ReceiptQuery;

beforeAll(async () => {
  bed = await startRouterBed();
  adapter = bedAdapter(bed);
  const owner = bed.createFundedKeypair();
  bed.mintUsdc(owner.publicKey, 5_000_000n);
  const planId = newPlanId();
  const request = {
    planId,
    owner: owner.publicKey.toBase58(),
    amountMicros: 1_000_000n,
    target: { kind: 'router' },
  } as const;
  const leg = onlyLeg(await adapter.buildDeposit(request));
  const submitted = await adapter.broadcast({ transaction: signLeg(leg, owner) });
  if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
  landed = { ...request, txId: submitted.txId, action: 'deposit' };
});
afterAll(() => bed.stop());

describe('readReceipt', () => {
  it('confirms the landed deposit (baseline for the cases below)', async () => {
    expect(await adapter.readReceipt(landed)).toMatchObject({
      status: 'confirmed',
      amountMicros: 1_000_000n,
    });
  });

  it('is a mismatch for another plan id', async () => {
    const receipt = await adapter.readReceipt({ ...landed, planId: newPlanId() });
    expect(receipt).toMatchObject({ status: 'mismatch', reason: expect.stringContaining('memo') });
  });

  it('is a mismatch when the fee payer is not the owner', async () => {
    const receipt = await adapter.readReceipt({
      ...landed,
      owner: Keypair.generate().publicKey.toBase58(),
    });
    expect(receipt).toMatchObject({
      status: 'mismatch',
      reason: expect.stringContaining('fee payer'),
    });
  });

  it('is a mismatch when read as a withdrawal', async () => {
    const receipt = await adapter.readReceipt({ ...landed, action: 'withdraw' });
    expect(receipt).toMatchObject({ status: 'mismatch' });
  });

  it('is failed for a deposit of more USDC than the owner holds', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 1_000_000n);
    const planId = newPlanId();
    const request = {
      planId,
      owner: owner.publicKey.toBase58(),
      amountMicros: 1_000_001n,
      target: { kind: 'router' },
    } as const;
    const transaction = legTransaction(onlyLeg(await adapter.buildDeposit(request)));
    transaction.sign([owner]);
    // skipPreflight: the node lands it and charges the fee; the token program fails it.
    const outcome = bed.send(transaction, { preflight: false });
    expect(outcome.landed).toBe(true);

    const txId = bs58.encode(transaction.signatures[0] ?? new Uint8Array());
    const receipt = await adapter.readReceipt({ ...request, txId, action: 'deposit' });
    expect(receipt).toEqual({
      status: 'failed',
      txId,
      reason: JSON.stringify({ InstructionError: [1, { Custom: 1 }] }),
    });
    expect(bed.usdcBalance(owner.publicKey)).toBe(1_000_000n);
  });

  it('is pending for a signature the chain does not know', async () => {
    const txId = bs58.encode(new Uint8Array(64).fill(9));
    expect(await adapter.readReceipt({ ...landed, txId })).toEqual({ status: 'pending', txId });
  });

  it('throws InvalidChainInputError for a txId that is not a signature', async () => {
    for (const txId of ['', 'abc', `0x${'ab'.repeat(32)}`, bs58.encode(new Uint8Array(32))]) {
      await expect(adapter.readReceipt({ ...landed, txId })).rejects.toMatchObject({
        name: 'InvalidChainInputError',
        field: 'txId',
      });
    }
  });

  it('is unavailable when the RPC is down, with no value invented', async () => {
    const down = bedAdapter(bed, { rpcUrl: await closedPortUrl() });
    expect(await down.readReceipt(landed)).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
  });

  it('cannot check a router leg without the router id or the router program id', async () => {
    for (const missing of [{ yieldRouter: undefined }, { programId: undefined }]) {
      expect(await bedAdapter(bed, missing).readReceipt(landed)).toMatchObject({
        status: 'unavailable',
        reason: 'no_standard_reader',
      });
    }
  });

  it('is a mismatch for a plain token transfer into the vault: no position was credited', async () => {
    const owner = bed.createFundedKeypair();
    bed.mintUsdc(owner.publicKey, 2_000_000n);
    const planId = newPlanId();
    const usdc = new PublicKey(bed.usdcMint);
    const message = new TransactionMessage({
      payerKey: owner.publicKey,
      recentBlockhash: bed.latestBlockhash(),
      instructions: [
        createTransferCheckedInstruction(
          getAssociatedTokenAddressSync(usdc, owner.publicKey),
          usdc,
          getAssociatedTokenAddressSync(usdc, new PublicKey(bed.router.yieldRouter), true),
          owner.publicKey,
          2_000_000n,
          6,
        ),
        planMemoInstruction(planId),
      ],
    }).compileToV0Message();
    const transaction = new VersionedTransaction(message);
    transaction.sign([owner]);
    const submitted = await adapter.broadcast({
      transaction: Buffer.from(transaction.serialize()).toString('base64'),
    });
    if (submitted.status !== 'submitted') throw new Error(JSON.stringify(submitted));
    expect(
      await adapter.readReceipt({
        txId: submitted.txId,
        planId,
        owner: owner.publicKey.toBase58(),
        action: 'deposit',
        target: { kind: 'router' },
      }),
    ).toEqual({
      status: 'mismatch',
      txId: submitted.txId,
      reason: `no router event "svc:${planId} deposit amount=2000000" from ${bed.router.programId}`,
    });
  });
});
