import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createPublicClient, createWalletClient, erc20Abi, http } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { verifyLedger } from '@yieldrouter/ledger';
import { BridgePlanDocument } from '@yieldrouter/schemas';
import { anvilAccount, anvilChain } from '@yieldrouter/chain-beds/evm';
import type { SolanaBed } from '@yieldrouter/chain-beds';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { bridgeCalls } from './testing/bridgeCalls';
import { divergencesOf, expectMintSimulated } from './testing/mintSimulation';
import { startCctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';
import type { CctpSolanaSuiBeds } from './testing/cctpSolanaSuiBeds';

// Base ↔ Solana end to end on the beds: Base (an anvil with the CCTP v2 stand-ins) and Solana
// (litesvm with our CCTP v2 stand-in programs), the Iris fake attesting burns on both. The owner
// signs the burn, the keeper settles it into in_flight, the mint leg comes from
// /svc/bridge/delivery, anyone signs and sends it, and only its confirmed receipt credits the
// destination, once.
const owner = anvilAccount(4);
const stranger = anvilAccount(6);
const wallet = Keypair.generate();
const solanaOwner = wallet.publicKey.toBase58();
const serviceFeeRecipient = Keypair.generate().publicKey;
const ownerKey = `test-owner-solana-flow-${Date.now()}`;

let beds: CctpSolanaSuiBeds;
let solana: SolanaBed;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSolanaSuiBeds(serviceFeeRecipient.toBase58());
  solana = beds.solana;
  await beds.base.fixtures.mintUsdc(owner.address, 500_000_000n);
  solana.airdrop(wallet.publicKey, 2_000_000_000n);
  // A wallet that ever held USDC has its USDC account: the mint pays into it.
  solana.mintUsdc(wallet.publicKey, 0n);
  t = await startTestApp({
    ...beds.settings,
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [owner.address, solanaOwner] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await beds?.stop();
});

const baseReader = () =>
  createPublicClient({
    chain: anvilChain(8453, beds.base.anvil.rpcUrl),
    transport: http(beds.base.anvil.rpcUrl),
  });

/** Signs and sends an EVM leg on Base with `key`; its hash, mined (and whether it ran). */
async function sendOnBase(leg: unknown, key: Hex = owner.privateKey) {
  const tx = (leg as { transaction: { to: Address; data: Hex } }).transaction;
  const client = createWalletClient({
    chain: anvilChain(8453, beds.base.anvil.rpcUrl),
    transport: http(beds.base.anvil.rpcUrl),
    account: privateKeyToAccount(key),
  });
  const hash = await client.sendTransaction({ to: tx.to, data: tx.data, gas: 1_000_000n });
  const receipt = await baseReader().waitForTransactionReceipt({ hash, pollingInterval: 20 });
  return { hash, ok: receipt.status === 'success' };
}

/** Signs a Solana leg (a v0 transaction, base64) with `signer` and runs it on the bed. */
function sendOnSolana(leg: unknown, signer: Keypair = wallet) {
  const tx = VersionedTransaction.deserialize(
    Buffer.from((leg as { transaction: string }).transaction, 'base64'),
  );
  tx.sign([signer]);
  return solana.send(tx);
}

const { plan, deliver, settle, balance, watch } = bridgeCalls(() => t, ownerKey);
const usdcOnBase = (who: Address) =>
  baseReader().readContract({
    address: beds.base.fixtures.usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [who],
  });

/** Plans Base → Solana, signs every leg on Base and settles the fee and the burn. */
async function burnOnBase(amountMicros: string) {
  const res = await plan({
    sourceChain: 'base',
    destChain: 'solana',
    amountMicros,
    sourceAddress: owner.address,
    destinationAddress: solanaOwner,
  }).expect(200);
  const document = BridgePlanDocument.parse(res.body);
  expect(document.status).toBe('prepared');
  for (const leg of document.legs ?? []) {
    const sent = await sendOnBase(leg);
    expect(sent.ok).toBe(true);
    if (leg.settles) await settle(document.planId, leg.index, sent.hash).expect(200);
  }
  return document;
}

describe('CCTP v2 between Base and Solana on the beds', () => {
  it('Base → Solana: the burn settles in flight, the mint on Solana credits liquid@solana once', async () => {
    const document = await burnOnBase('25000000');
    const burnMicros = BigInt(document.burnAmountMicros ?? '0');
    expect(burnMicros).toBe(24_975_000n);
    const planId = document.planId;
    expect(await balance(owner.address, 'base', 'in_flight')).toBe(burnMicros);

    const next = await deliver({ planId }).expect(200);
    expect(next.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(next.body.mintLeg).toMatchObject({ action: 'mint', encoding: 'solana-v0-base64' });
    // Issue 44: the mint leg simulated on Solana before anyone signs it.
    expectMintSimulated(next.body, 'solana', document.legs?.length, burnMicros);

    const before = solana.usdcBalance(wallet.publicKey);
    const minted = sendOnSolana(next.body.mintLeg);
    if (!minted.landed) throw new Error(`mint dropped: ${minted.logs.join('\n')}`);
    expect(minted.entry.err).toBeNull();
    // Standard finality: no rail fee; the stand-in pays the amount out of its custody.
    expect(solana.usdcBalance(wallet.publicKey) - before).toBe(burnMicros);
    const mintTx = minted.entry.signature;

    // The same message again: the used nonce refuses it on chain.
    const again = sendOnSolana(next.body.mintLeg);
    expect(again.landed ? again.entry.err : again.err).not.toBeNull();
    expect(solana.usdcBalance(wallet.publicKey) - before).toBe(burnMicros);

    const delivered = await deliver({ planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: burnMicros.toString(),
      destTxId: mintTx,
    });
    expect(await balance(owner.address, 'base', 'in_flight')).toBe(0n);
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(burnMicros);
    // What it moved is what its simulation said (getTransaction's token balances): no divergence.
    expect(await divergencesOf(t, planId)).toEqual({ divergences: [], events: [] });
    // Reported twice: credited once.
    const replay = await deliver({ planId, destTxId: mintTx }).expect(200);
    expect(replay.body).toMatchObject({ credited: false, replay: true });
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(burnMicros);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it("Base → Solana: another plan's mint, or a transaction that is no mint, credits nothing", async () => {
    const first = await burnOnBase('5000000');
    const second = await burnOnBase('6000000');
    const leg = (await deliver({ planId: second.planId }).expect(200)).body.mintLeg;
    const minted = sendOnSolana(leg);
    if (!minted.landed || minted.entry.err !== null) throw new Error('second mint failed');
    const liquid = await balance(solanaOwner, 'solana', 'liquid');
    const forged = await deliver({
      planId: first.planId,
      destTxId: minted.entry.signature,
    }).expect(422);
    expect(forged.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(liquid);
    // Nor does a transaction that only paid the owner (no receive_message of the message).
    const payer = solana.createFundedKeypair();
    const payment = new VersionedTransaction(
      new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: solana.latestBlockhash(),
        instructions: [
          SystemProgram.transfer({
            fromPubkey: payer.publicKey,
            toPubkey: wallet.publicKey,
            lamports: 1_000_000,
          }),
        ],
      }).compileToV0Message(),
    );
    payment.sign([payer]);
    const paid = solana.send(payment);
    if (!paid.landed || paid.entry.err !== null) throw new Error('payment failed');
    const notMint = await deliver({ planId: first.planId, destTxId: paid.entry.signature });
    expect(notMint.status).toBe(422);
    expect(notMint.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(liquid);
    const inFlight = await balance(owner.address, 'base', 'in_flight');
    expect(inFlight).toBeGreaterThanOrEqual(BigInt(first.burnAmountMicros ?? '0'));
    // The second plan's own delivery still credits.
    await deliver({ planId: second.planId, destTxId: minted.entry.signature }).expect(200);
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(
      liquid + BigInt(second.burnAmountMicros ?? '0'),
    );
  });

  it("Base → Solana: the keeper's bridge watch finds the unreported mint on Solana and credits it once", async () => {
    const document = await burnOnBase('8000000');
    const burnMicros = BigInt(document.burnAmountMicros ?? '0');
    const waiting = await watch();
    expect(waiting).toMatchObject({ delivered: 0, errors: 0 });
    expect(waiting.awaitingMint).toBeGreaterThanOrEqual(1);
    const leg = (await deliver({ planId: document.planId }).expect(200)).body.mintLeg;
    const minted = sendOnSolana(leg);
    if (!minted.landed || minted.entry.err !== null) throw new Error('mint failed');
    const liquid = await balance(solanaOwner, 'solana', 'liquid');
    expect(await watch()).toMatchObject({ delivered: 1, errors: 0 });
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(liquid + burnMicros);
    expect(await watch()).toMatchObject({ delivered: 0, errors: 0 });
    const reported = await deliver({ planId: document.planId, destTxId: minted.entry.signature });
    expect(reported.body).toMatchObject({ credited: false, replay: true });
    expect(await balance(solanaOwner, 'solana', 'liquid')).toBe(liquid + burnMicros);
  });

  it('Solana → Base: the burn on Solana is attested from its MessageSent account and mints on Base', async () => {
    const res = await plan({
      sourceChain: 'solana',
      destChain: 'base',
      amountMicros: '10000000',
      sourceAddress: solanaOwner,
      destinationAddress: owner.address,
    });
    expect(res.body.message).toBeUndefined();
    expect(res.status).toBe(200);
    const document = BridgePlanDocument.parse(res.body);
    expect(document.status).toBe('prepared');
    const burnMicros = BigInt(document.burnAmountMicros ?? '0');
    const [leg] = document.legs ?? [];
    if (!leg) throw new Error('no burn leg');
    const held = solana.usdcBalance(wallet.publicKey);
    const burned = sendOnSolana(leg);
    if (!burned.landed) throw new Error(`burn dropped: ${burned.logs.join('\n')}`);
    expect(burned.entry.err).toBeNull();
    expect(held - solana.usdcBalance(wallet.publicKey)).toBe(10_000_000n);
    const burnTx = burned.entry.signature;
    const settled = await settle(document.planId, leg.index, burnTx).expect(200);
    expect(settled.body).toMatchObject({ status: 'confirmed' });
    expect(await balance(solanaOwner, 'solana', 'in_flight')).toBe(burnMicros);

    const next = await deliver({ planId: document.planId }).expect(200);
    expect(next.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(next.body.mintLeg).toMatchObject({
      action: 'mint',
      encoding: 'evm-transaction-request',
    });
    const before = await usdcOnBase(owner.address);
    const mint = await sendOnBase(next.body.mintLeg, stranger.privateKey);
    expect(mint.ok).toBe(true);
    expect((await usdcOnBase(owner.address)) - before).toBe(burnMicros);
    const delivered = await deliver({ planId: document.planId, destTxId: mint.hash }).expect(200);
    expect(delivered.body).toMatchObject({ bridgeStatus: 'delivered', credited: true });
    expect(await balance(solanaOwner, 'solana', 'in_flight')).toBe(0n);
    expect(await balance(owner.address, 'base', 'liquid')).toBe(burnMicros);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});
