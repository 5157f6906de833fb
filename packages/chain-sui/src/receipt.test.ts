import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake } from '@yieldrouter/chain-beds/sui';
import { startGarbageServer, startSilentServer } from '@yieldrouter/chain-beds/faults';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Transaction } from '@mysten/sui/transactions';
import { toBase58, toBase64 } from '@mysten/sui/utils';
import type { LegRequest, ReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { createSuiAdapter } from './adapter';
import type { SuiAdapterConfig } from './config';
import {
  legBytes,
  legRequest,
  OTHER_PLAN_ID,
  PACKAGE_ID,
  PLAN_ID,
  suiConfig,
  USDC,
} from './testFixtures';

// Wallet legs (target `router`: a route or an exit with no venue) on the Sui fake, which runs
// coin commands as a node does: the owner sends a USDC coin of the amount to themselves, and the
// receipt counts the coins the effects say the transaction created for the owner.
const SUI = '0x2::sui::SUI';
const STRANGER = new Ed25519Keypair().toSuiAddress();

let fake: SuiFake;
beforeAll(async () => {
  fake = await startSuiFake();
});
afterAll(() => fake.stop());

function adapter(overrides: Partial<SuiAdapterConfig> = {}) {
  return createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl, ...overrides }));
}

function query(owner: string, txId: string, overrides: Partial<ReceiptQuery> = {}): ReceiptQuery {
  return {
    txId,
    planId: PLAN_ID,
    owner,
    action: 'deposit',
    target: { kind: 'router' },
    ...overrides,
  };
}

/** A funded owner: 1 SUI for gas, 20 USDC. */
function fundedOwner() {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  const gas = fake.setBalance(owner, SUI, 1_000_000_000n);
  const usdc = fake.setBalance(owner, USDC, 20_000_000n);
  if (!gas || !usdc) throw new Error('setup');
  return { wallet, owner, gas, usdc };
}

/** Signs `bytes` as the owner and executes them on the fake; the digest. */
async function execute(wallet: Ed25519Keypair, bytes: Uint8Array): Promise<string> {
  const { signature } = await wallet.signTransaction(bytes);
  const sent = await adapter().broadcast({ transaction: toBase64(bytes), signatures: [signature] });
  if (sent.status !== 'submitted') throw new Error(JSON.stringify(sent));
  return sent.txId;
}

/** The adapter's wallet leg for `request`, built as final bytes, signed and executed. */
async function walletLeg(action: 'deposit' | 'withdraw', request?: Partial<LegRequest>) {
  const funded = fundedOwner();
  const refs = {
    gas: [funded.gas],
    gasPrice: fake.referenceGasPrice,
    gasBudget: 10_000_000n,
    usdcCoins: [funded.usdc],
  };
  const leg = legRequest(funded.owner, request);
  const build =
    action === 'deposit'
      ? await adapter().buildDepositBytes(leg, refs)
      : await adapter().buildWithdrawBytes(leg, refs);
  return { ...funded, digest: await execute(funded.wallet, legBytes(build)) };
}

/** A hand-built transaction of the owner's (gas from their SUI coin). */
async function ownTransaction(
  funded: ReturnType<typeof fundedOwner>,
  build: (tx: Transaction) => void,
): Promise<string> {
  const tx = new Transaction();
  tx.setSender(funded.owner);
  tx.setGasPayment([funded.gas]);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  build(tx);
  return execute(funded.wallet, await tx.build());
}

describe('a wallet leg settles from the coin it created for the owner', () => {
  it.each(['deposit', 'withdraw'] as const)(
    '%s: confirmed for the amount, no shares',
    async (action) => {
      const { owner, digest } = await walletLeg(action);
      const receipt = await adapter().readReceipt(query(owner, digest, { action }));
      expect(receipt).toMatchObject({
        status: 'confirmed',
        txId: digest,
        planId: PLAN_ID,
        amountMicros: 12_500_000n,
        shares: null,
      });
      // The owner still holds every micro: nothing left their wallet but gas.
      const [usdc] = (await adapter().readBalances(owner)).filter((leg) => leg.asset === 'USDC');
      expect(usdc).toMatchObject({ status: 'ok', amount: 20_000_000n });
    },
  );

  it('still reads the coin at its created version after the owner spent it', async () => {
    const funded = await walletLeg('deposit');
    const coins = fake.getTransaction(funded.digest)?.changedObjects ?? [];
    const created = coins.find((change) => change.previousVersion === undefined);
    const ref = created && fake.getObjectRef(created.objectId);
    const gas = fake.getObjectRef(funded.gas.objectId);
    if (!ref || !gas) throw new Error('no coin');
    await ownTransaction({ ...funded, gas }, (tx) =>
      tx.transferObjects([tx.objectRef(ref)], STRANGER),
    );
    expect(await adapter().readReceipt(query(funded.owner, funded.digest))).toMatchObject({
      status: 'confirmed',
      amountMicros: 12_500_000n,
    });
  });
});

describe('what never settles a wallet leg', () => {
  it('another plan, another owner: mismatch', async () => {
    const { owner, digest } = await walletLeg('deposit');
    expect(await adapter().readReceipt(query(owner, digest, { planId: OTHER_PLAN_ID }))).toEqual({
      status: 'mismatch',
      txId: digest,
      reason: 'the transaction carries another plan id',
    });
    expect(await adapter().readReceipt(query(STRANGER, digest))).toMatchObject({
      status: 'mismatch',
      reason: expect.stringMatching(/^sent by 0x[0-9a-f]{64}, not the owner$/),
    });
  });

  it('the coin sent to someone else, or another coin type: mismatch', async () => {
    const funded = fundedOwner();
    const toStranger = await ownTransaction(funded, (tx) => {
      tx.pure.vector('u8', planIdToBytes(PLAN_ID));
      const [coin] = tx.splitCoins(tx.objectRef(funded.usdc), [12_500_000n]);
      tx.transferObjects([coin!], STRANGER);
    });
    const gas = fake.getObjectRef(funded.gas.objectId);
    if (!gas) throw new Error('no gas');
    const sui = await ownTransaction({ ...funded, gas }, (tx) => {
      tx.pure.vector('u8', planIdToBytes(PLAN_ID));
      const [coin] = tx.splitCoins(tx.gas, [12_500_000n]);
      tx.transferObjects([coin!], funded.owner);
    });
    for (const digest of [toStranger, sui]) {
      expect(await adapter().readReceipt(query(funded.owner, digest))).toEqual({
        status: 'mismatch',
        txId: digest,
        reason: 'the transaction created no USDC coin for the owner',
      });
    }
  });

  it('a transaction that calls a package (ours or any other): mismatch, even when it failed', async () => {
    const funded = fundedOwner();
    const digest = await ownTransaction(funded, (tx) => {
      const [coin] = tx.splitCoins(tx.objectRef(funded.usdc), [12_500_000n]);
      tx.moveCall({
        target: `${PACKAGE_ID}::router::deposit`,
        typeArguments: [USDC],
        arguments: [coin!, tx.pure.vector('u8', planIdToBytes(PLAN_ID))],
      });
    });
    const reason = `it calls ${PACKAGE_ID}::router::deposit; a wallet or transfer leg calls no package`;
    expect(await adapter().readReceipt(query(funded.owner, digest))).toEqual({
      status: 'mismatch',
      txId: digest,
      reason,
    });
    fake.recordTransaction({ digest, sender: funded.owner, status: 'failure', error: 'MoveAbort' });
    expect(await adapter().readReceipt(query(funded.owner, digest))).toEqual({
      status: 'mismatch',
      txId: digest,
      reason: `failed, not this leg's: ${reason}`,
    });
  });

  it("a failed digest fails the leg only when it is the leg's own", async () => {
    const { owner, digest } = await walletLeg('deposit');
    fake.recordTransaction({
      digest,
      sender: owner,
      status: 'failure',
      error: 'InsufficientCoinBalance',
    });
    expect(await adapter().readReceipt(query(owner, digest))).toEqual({
      status: 'failed',
      txId: digest,
      reason: 'InsufficientCoinBalance',
    });
    expect(
      await adapter().readReceipt(query(owner, digest, { planId: OTHER_PLAN_ID })),
    ).toMatchObject({
      status: 'mismatch',
      reason: "failed, not this leg's: the transaction carries another plan id",
    });
  });

  it('a created coin the node cannot show: unavailable, never an amount', async () => {
    const { owner, digest } = await walletLeg('deposit');
    const stored = fake.getTransaction(digest);
    fake.recordTransaction({
      digest,
      sender: owner,
      changedObjects: [
        {
          objectId: `0x${'77'.repeat(32)}`,
          owner: { AddressOwner: owner },
          version: 9n,
          digest: toBase58(new Uint8Array(32).fill(7)),
          previousVersion: undefined,
        },
      ],
      balanceChanges: stored?.balanceChanges ?? [],
    });
    expect(await adapter().readReceipt(query(owner, digest))).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_bad_response',
    });
  });
});

describe('readReceipt input and reachability', () => {
  const OWNER = new Ed25519Keypair().toSuiAddress();

  it('is pending for a digest the node does not know', async () => {
    const digest = toBase58(new Uint8Array(32).fill(3));
    expect(await adapter().readReceipt(query(OWNER, digest))).toEqual({
      status: 'pending',
      txId: digest,
    });
  });

  it('refuses a txId that is not a Sui digest, and a bad owner', async () => {
    for (const [txId, owner, field] of [
      ['0xabc', OWNER, 'txId'],
      [toBase58(new Uint8Array(31).fill(1)), OWNER, 'txId'],
      [toBase58(new Uint8Array(32).fill(1)), 'bob', 'owner'],
    ]) {
      const error = await adapter()
        .readReceipt(query(owner ?? '', txId ?? ''))
        .catch((e) => e);
      expect(error).toBeInstanceOf(InvalidChainInputError);
      expect(error).toMatchObject({ field });
    }
  });

  it('is unavailable without the USDC type, the RPC, or an answer', async () => {
    const digest = toBase58(new Uint8Array(32).fill(4));
    expect(
      await adapter({ usdcCoinType: undefined }).readReceipt(query(OWNER, digest)),
    ).toMatchObject({
      status: 'unavailable',
      reason: 'asset_not_configured',
    });
    expect(await createSuiAdapter(suiConfig()).readReceipt(query(OWNER, digest))).toMatchObject({
      status: 'unavailable',
      reason: 'rpc_not_configured',
    });
    const silent = await startSilentServer();
    const garbage = await startGarbageServer('{"jsonrpc":"2.0","id":1,"result":{"digest":1}}');
    try {
      const slow = createSuiAdapter(suiConfig({ rpcUrl: silent.url, timeoutMs: 200 }));
      expect(await slow.readReceipt(query(OWNER, digest))).toMatchObject({ reason: 'rpc_timeout' });
      const bad = createSuiAdapter(suiConfig({ rpcUrl: garbage.url }));
      expect(await bad.readReceipt(query(OWNER, digest))).toMatchObject({
        reason: 'rpc_bad_response',
      });
    } finally {
      await silent.close();
      await garbage.close();
    }
  });
});
