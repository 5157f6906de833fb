import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { LegBuild, TransferReceiptQuery, UnsignedLeg } from '@yieldrouter/schemas';
import { planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import { OTHER_PLAN_ID, PLAN_ID, USDC, suiConfig } from './testFixtures';
import {
  fundedWallet,
  useVenueBed,
  walletSend,
  withTransaction,
} from './venues/walletSend.testing';

// A Sui transfer leg (auto-pay's payouts) on the bed fake: built unresolved (the wallet picks the
// owner's USDC coins), resolved, signed and executed as a wallet does, then read back from
// sui_getTransactionBlock; its dry run is what lands.

const bed = useVenueBed();
const adapter = () => bed().adapter;

const usdcOf = async (owner: string) =>
  BigInt((await bed().client.getBalance({ owner, coinType: USDC })).totalBalance);

function onlyLeg(build: LegBuild): UnsignedLeg {
  if (build.status !== 'prepared' || build.legs.length !== 1) {
    throw new Error(JSON.stringify(build));
  }
  return build.legs[0] as UnsignedLeg;
}

async function transferLeg(owner: string, recipient: string, amountMicros: bigint) {
  return onlyLeg(
    await adapter().buildTransfer({ planId: PLAN_ID, owner, recipient, amountMicros }),
  );
}

/** The owner's wallet resolves, signs and executes `leg`. */
const sendLeg = (wallet: Ed25519Keypair, leg: UnsignedLeg) =>
  walletSend(bed().fake, bed().client, wallet, { status: 'prepared', legs: [leg] });

/** A funded owner (1 SUI, 50 USDC) and a payee that holds nothing yet. */
function ownerAndPayee() {
  const wallet = fundedWallet(bed().fake);
  return { wallet, owner: wallet.toSuiAddress(), payee: new Ed25519Keypair().toSuiAddress() };
}

/** A hand-built PTB of the owner's, in place of a transfer leg, resolved by the wallet, executed. */
async function ownTransaction(wallet: Ed25519Keypair, build: (tx: Transaction) => void) {
  const tx = new Transaction();
  tx.setSender(wallet.toSuiAddress());
  build(tx);
  const leg = await transferLeg(wallet.toSuiAddress(), wallet.toSuiAddress(), 1n);
  return sendLeg(wallet, await withTransaction(leg, tx));
}

describe('a Sui transfer leg, end to end on the bed', () => {
  it('pays exactly the amount to the payee and is read back from the balance changes', async () => {
    const { wallet, owner, payee } = ownerAndPayee();
    const leg = await transferLeg(owner, payee, 1_234_567n);
    expect(leg).toMatchObject({
      chain: 'sui',
      action: 'transfer',
      settles: true,
      planId: PLAN_ID,
      amountMicros: 1_234_567n,
      summary: expect.stringContaining(`1.234567 USDC from ${owner} to ${payee}`),
      payload: { encoding: 'sui-transaction-json' },
    });
    const sent = await sendLeg(wallet, leg);
    expect(sent.status).toBe('success');
    expect(await usdcOf(payee)).toBe(1_234_567n);
    expect(await usdcOf(owner)).toBe(50_000_000n - 1_234_567n);

    const query: TransferReceiptQuery = {
      txId: sent.digest,
      planId: PLAN_ID,
      owner,
      recipient: payee,
    };
    expect(await adapter().readTransferReceipt(query)).toEqual({
      status: 'confirmed',
      txId: sent.digest,
      planId: PLAN_ID,
      amountMicros: 1_234_567n,
      shares: null,
      block: bed().fake.getTransaction(sent.digest)?.checkpoint?.toString(),
    });
    // The same transaction read for another payee, owner or plan is not that leg's.
    const other = new Ed25519Keypair().toSuiAddress();
    expect(await adapter().readTransferReceipt({ ...query, recipient: other })).toEqual({
      status: 'mismatch',
      txId: sent.digest,
      reason: `no USDC reached ${other}`,
    });
    expect(await adapter().readTransferReceipt({ ...query, owner: other })).toMatchObject({
      status: 'mismatch',
      reason: expect.stringContaining('not the owner'),
    });
    expect(await adapter().readTransferReceipt({ ...query, planId: OTHER_PLAN_ID })).toMatchObject({
      status: 'mismatch',
      reason: 'the transaction carries another plan id',
    });
  });

  it('the dry run is what lands: the owner pays, the payee receives, nothing unobserved', async () => {
    const { wallet, owner, payee } = ownerAndPayee();
    const leg = await transferLeg(owner, payee, 2_500_000n);
    const simulated = await adapter().simulateLegs!({ owner, payloads: [leg.payload] });
    if (simulated.status !== 'ok') throw new Error(JSON.stringify(simulated));
    const [run] = simulated.legs;
    expect(run?.outcome).toBe('ok');
    expect(run).not.toHaveProperty('unobserved');
    expect(run?.changes.filter((change) => change.asset === USDC)).toEqual(
      expect.arrayContaining([
        { account: owner, asset: USDC, delta: -2_500_000n },
        { account: payee, asset: USDC, delta: 2_500_000n },
      ]),
    );
    const sent = await sendLeg(wallet, leg);
    expect(await adapter().readLegChanges!(sent.digest)).toEqual({
      status: 'ok',
      changes: run?.changes,
      block: expect.stringMatching(/^[0-9]+$/),
    });
  });

  it('a tagged PTB that also pays someone else: only what moved owner → payee, else mismatch', async () => {
    const { wallet, owner, payee } = ownerAndPayee();
    const stranger = new Ed25519Keypair().toSuiAddress();
    const sent = await ownTransaction(wallet, (tx) => {
      tx.pure.vector('u8', planIdToBytes(PLAN_ID));
      tx.transferObjects([coinWithBalance({ type: USDC, balance: 1_000_000n })], payee);
      tx.transferObjects([coinWithBalance({ type: USDC, balance: 3_000_000n })], stranger);
    });
    expect(sent.status).toBe('success');
    expect(
      await adapter().readTransferReceipt({
        txId: sent.digest,
        planId: PLAN_ID,
        owner,
        recipient: payee,
      }),
    ).toEqual({
      status: 'mismatch',
      txId: sent.digest,
      reason: "1 USDC reached the recipient but the owner's USDC changed by -4 USDC",
    });
  });

  it("a failed transaction fails the leg only when it is the leg's own", async () => {
    const { wallet, owner, payee } = ownerAndPayee();
    const leg = await transferLeg(owner, payee, 1_000_000n);
    const sent = await sendLeg(wallet, leg);
    bed().fake.recordTransaction({
      digest: sent.digest,
      sender: owner,
      status: 'failure',
      error: 'InsufficientCoinBalance',
    });
    const query = { txId: sent.digest, planId: PLAN_ID, owner, recipient: payee };
    expect(await adapter().readTransferReceipt(query)).toEqual({
      status: 'failed',
      txId: sent.digest,
      reason: 'InsufficientCoinBalance',
    });
    expect(await adapter().readTransferReceipt({ ...query, planId: OTHER_PLAN_ID })).toMatchObject({
      status: 'mismatch',
      reason: "failed, not this leg's: the transaction carries another plan id",
    });
  });

  it('bad input names the field; no USDC blocks; a chain that cannot be read is unavailable', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const request = { planId: PLAN_ID, owner, recipient: owner, amountMicros: 1n };
    await expect(
      adapter().buildTransfer({
        ...request,
        recipient: 'So11111111111111111111111111111111111111112',
      }),
    ).rejects.toMatchObject({ field: 'recipient' });
    await expect(adapter().buildTransfer({ ...request, owner: 'nope' })).rejects.toMatchObject({
      field: 'owner',
    });
    await expect(adapter().buildTransfer({ ...request, amountMicros: 0n })).rejects.toMatchObject({
      field: 'amountMicros',
    });
    const bare = createSuiAdapter(
      suiConfig({ rpcUrl: bed().fake.rpcUrl, usdcCoinType: undefined }),
    );
    expect(await bare.buildTransfer(request)).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'asset_not_configured', field: 'usdcCoinType' }],
    });

    const wallet = fundedWallet(bed().fake);
    const leg = await transferLeg(wallet.toSuiAddress(), owner, 1_000n);
    const { digest } = await sendLeg(wallet, leg);
    const query = { txId: digest, planId: PLAN_ID, owner: wallet.toSuiAddress(), recipient: owner };
    await expect(
      adapter().readTransferReceipt({ ...query, recipient: '0xnothex' }),
    ).rejects.toMatchObject({ field: 'recipient' });
    expect(await bare.readTransferReceipt(query)).toMatchObject({
      status: 'unavailable',
      reason: 'asset_not_configured',
    });
    const offline = createSuiAdapter(suiConfig({ rpcUrl: undefined }));
    expect(await offline.readTransferReceipt(query)).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
    const down = createSuiAdapter(suiConfig({ rpcUrl: 'http://127.0.0.1:9' }));
    expect(await down.readTransferReceipt(query)).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_error',
    });
    const unknown = 'Gm4q8Wz1FDRaMw7V7w5fQNxQBY6Ru7bsf3X1xSv3z7cW';
    expect(await adapter().readTransferReceipt({ ...query, txId: unknown })).toEqual({
      status: 'pending',
      txId: unknown,
    });
  });
});
