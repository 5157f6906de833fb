import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { startSilentServer } from '@yieldrouter/chain-beds/faults';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, toBase64 } from '@mysten/sui/utils';
import type { LegBuild } from '@yieldrouter/schemas';
import { InvalidChainInputError } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import type { SuiResolvedRefs } from './resolvedLegs';
import { legRequest, suiConfig, USDC } from './testFixtures';

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

/** A fresh owner with gas and USDC on the fake, and the refs a deposit needs. */
function fundedOwner() {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  const gas = fake.setBalance(owner, '0x2::sui::SUI', 2_000_000_000n);
  const usdc = fake.setBalance(owner, USDC, 50_000_000n);
  if (!gas || !usdc) throw new Error('setup');
  const refs: SuiResolvedRefs = {
    gas: [gas],
    gasPrice: fake.referenceGasPrice,
    gasBudget: 50_000_000n,
    usdcCoins: [usdc],
  };
  return { wallet, owner, refs };
}

function base64Of(build: LegBuild): string {
  const payload = build.status === 'prepared' ? build.legs[0]?.payload : undefined;
  if (payload?.encoding !== 'sui-transaction-bcs-base64') throw new Error('no bytes');
  return payload.transaction;
}

async function signedDeposit() {
  const { wallet, owner, refs } = fundedOwner();
  const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
  const transaction = base64Of(await adapter.buildDepositBytes(legRequest(owner), refs));
  const { signature } = await wallet.signTransaction(fromBase64(transaction));
  return { owner, wallet, transaction, signature, adapter };
}

describe('broadcast through the fake', () => {
  it('submits owner-signed bytes and returns the real digest', async () => {
    const { transaction, signature, adapter, owner } = await signedDeposit();
    const result = await adapter.broadcast({ transaction, signatures: [signature] });
    const digest = TransactionDataBuilder.getDigestFromBytes(fromBase64(transaction));
    expect(result).toEqual({ status: 'submitted', txId: digest });
    expect(fake.getTransaction(digest)).toMatchObject({ sender: owner, signatures: [signature] });
  });

  it('rejects a signature that is not over the bytes before any RPC call', async () => {
    const { transaction, wallet, adapter } = await signedDeposit();
    const { signature: wrong } = await wallet.signTransaction(new Uint8Array([9, 9, 9]));
    const before = fake.calls().length;
    const result = await adapter.broadcast({ transaction, signatures: [wrong] });
    expect(result).toEqual({
      status: 'rejected',
      reason: 'signature 0 is not a valid signature over these transaction bytes',
    });
    expect(fake.calls()).toHaveLength(before);
  });

  it('rejects a valid signature from someone who is not the sender, and no signature', async () => {
    const { transaction, adapter } = await signedDeposit();
    const { signature } = await new Ed25519Keypair().signTransaction(fromBase64(transaction));
    const before = fake.calls().length;
    expect(await adapter.broadcast({ transaction, signatures: [signature] })).toEqual({
      status: 'rejected',
      reason: 'the sender did not sign these transaction bytes',
    });
    expect(await adapter.broadcast({ transaction })).toMatchObject({ status: 'rejected' });
    expect(fake.calls()).toHaveLength(before);
  });

  it('is refused when broadcast is disabled', async () => {
    const { transaction, signature } = await signedDeposit();
    const off = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, broadcastEnabled: false }));
    const result = await off.broadcast({ transaction, signatures: [signature] });
    expect(result).toMatchObject({ status: 'refused', blocker: { code: 'broadcast_disabled' } });
  });

  it("passes on the node's refusal (stale gas version) as rejected", async () => {
    const first = await signedDeposit();
    await first.adapter.broadcast({
      transaction: first.transaction,
      signatures: [first.signature],
    });
    // Same refs, other budget: the gas coin moved on with the first transaction.
    const tx = TransactionDataBuilder.fromBytes(fromBase64(first.transaction));
    const stale = tx.build({ overrides: { gasData: { budget: '40000000' } } });
    const { signature } = await first.wallet.signTransaction(stale);
    const result = await first.adapter.broadcast({
      transaction: toBase64(stale),
      signatures: [signature],
    });
    expect(result.status).toBe('rejected');
    expect(result.status === 'rejected' && result.reason).toMatch(/not available for consumption/);
  });

  it('refuses bytes that are not a Sui transaction as bad input', async () => {
    const adapter = createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
    for (const transaction of ['not base64!', '', toBase64(new Uint8Array([1, 2, 3]))]) {
      const error = await adapter.broadcast({ transaction, signatures: [] }).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidChainInputError);
      expect(error).toMatchObject({ field: 'transaction' });
    }
  });

  it('is unavailable (not rejected) when the RPC is silent, naming the digest', async () => {
    const { transaction, signature } = await signedDeposit();
    const silent = await startSilentServer();
    try {
      const adapter = createSuiAdapter(suiConfig({ rpcUrl: silent.url, timeoutMs: 200 }));
      const result = await adapter.broadcast({ transaction, signatures: [signature] });
      const digest = TransactionDataBuilder.getDigestFromBytes(fromBase64(transaction));
      expect(result).toMatchObject({ status: 'unavailable', reason: 'rpc_timeout' });
      expect(result.status === 'unavailable' && result.detail).toContain(digest);
    } finally {
      await silent.close();
    }
  });

  it('is unavailable when no RPC is configured', async () => {
    const { transaction, signature } = await signedDeposit();
    const adapter = createSuiAdapter(suiConfig());
    expect(await adapter.broadcast({ transaction, signatures: [signature] })).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
  });
});
