import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { verifyLedger } from '@yieldrouter/ledger';
import { BridgePlanDocument } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { bridgeCalls } from './testing/bridgeCalls';
import { startCctpSolanaAndSuiBeds } from './testing/cctpSolanaAndSuiBeds';
import type { CctpSolanaAndSuiBeds } from './testing/cctpSolanaAndSuiBeds';
import { SUI_BED_USDC, SUI_CCTP_FEE_RECIPIENT } from './testing/suiCctpFake';

// CCTP v2 between Solana (litesvm with our CCTP v2 stand-in programs) and Sui (the Sui fake
// running Circle's packages), no EVM chain in between: the owner signs the burn on one chain,
// the keeper settles it into in_flight, the Iris fake attests it (domain 5 or 8, read from the
// source chain), the mint leg from /svc/bridge/delivery runs on the other chain, and only a
// confirmed mint of this plan's message to the owner credits liquid there, once.
const wallet = Keypair.generate();
const solanaOwner = wallet.publicKey.toBase58();
const suiWallet = new Ed25519Keypair();
const suiOwner = suiWallet.toSuiAddress();
const suiRelayer = new Ed25519Keypair();
const serviceFeeRecipient = Keypair.generate().publicKey.toBase58();
const ownerKey = `test-owner-solana-sui-${Date.now()}`;

let beds: CctpSolanaAndSuiBeds;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSolanaAndSuiBeds(serviceFeeRecipient);
  beds.solana.airdrop(wallet.publicKey, 2_000_000_000n);
  beds.solana.mintUsdc(wallet.publicKey, 100_000_000n);
  beds.sui.setBalance(suiOwner, '0x2::sui::SUI', 5_000_000_000n);
  beds.sui.setBalance(suiOwner, SUI_BED_USDC, 100_000_000n);
  beds.sui.setBalance(suiRelayer.toSuiAddress(), '0x2::sui::SUI', 1_000_000_000n);
  t = await startTestApp({
    ...beds.settings,
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [solanaOwner, suiOwner] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await beds?.stop();
});

const { plan, deliver, settle: settleCall, balance, watch } = bridgeCalls(() => t, ownerKey);
const settle = (planId: string | undefined, index: number, txId: string) =>
  settleCall(planId, index, txId).expect(200);
const suiLeg = (leg: unknown) => (leg as { transaction: string }).transaction;

/** Signs a Solana leg (a v0 transaction, base64) as the owner and runs it; its signature. */
function sendOnSolana(leg: unknown): string {
  const tx = VersionedTransaction.deserialize(
    Buffer.from((leg as { transaction: string }).transaction, 'base64'),
  );
  tx.sign([wallet]);
  const sent = beds.solana.send(tx);
  if (!sent.landed) throw new Error(`Solana leg dropped: ${sent.logs.join('\n')}`);
  if (sent.entry.err !== null) throw new Error(`Solana leg failed: ${JSON.stringify(sent.entry)}`);
  return sent.entry.signature;
}

/** A fast Solana → Sui plan, its legs signed by the owner on Solana and settled. */
async function burnOnSolana(amountMicros: string) {
  const res = await plan({
    sourceChain: 'solana',
    destChain: 'sui',
    amountMicros,
    speed: 'fast',
    sourceAddress: solanaOwner,
    destinationAddress: suiOwner,
  });
  expect(res.body.blockers).toBeUndefined();
  expect(res.status).toBe(200);
  const document = BridgePlanDocument.parse(res.body);
  expect(document.status).toBe('prepared');
  for (const leg of document.legs ?? []) {
    const signature = sendOnSolana(leg);
    if (leg.settles) await settle(document.planId, leg.index, signature);
  }
  return document;
}

describe('CCTP v2 between Solana and Sui on the beds', () => {
  it('Solana → Sui (fast): burned into in_flight, attested, minted on Sui, liquid@sui credited once', async () => {
    const held = beds.solana.usdcBalance(wallet.publicKey);
    const document = await burnOnSolana('25000000');
    // 10 bps to the service on Solana, then 1 bp at most to the rail on Sui (rounded up).
    expect(document).toMatchObject({
      burnAmountMicros: '24975000',
      minReceivedMicros: '24972502',
      eta: { finality: 'fast', minFinalityThreshold: 1000 },
      feeLines: [
        { kind: 'service_bridge_fee', bps: 10, amountMicros: '25000', payer: 'owner' },
        { kind: 'rail_fee', amountMicros: '2498', payer: 'owner' },
      ],
      disclosure: { refundTo: solanaOwner },
    });
    expect(document.disclosure?.risks.join(' ')).toContain('and mints it on sui');
    // The lane's fees were read for Solana (domain 5) to Sui (domain 8).
    expect(beds.iris.requests).toContain('/v2/burn/USDC/fees/5/8');
    expect(held - beds.solana.usdcBalance(wallet.publicKey)).toBe(25_000_000n);
    expect(await balance(solanaOwner, 'solana', 'in_flight')).toBe(24_975_000n);

    const ready = await deliver({ planId: document.planId }).expect(200);
    expect(ready.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(ready.body.mintLeg).toMatchObject({ action: 'mint', encoding: 'sui-transaction-json' });
    const before = await beds.suiUsdcOf(suiOwner);
    const fees = await beds.suiUsdcOf(SUI_CCTP_FEE_RECIPIENT);
    // Relayed by someone else: it mints to the owner's Sui address all the same.
    const minted = await beds.executeSuiLeg(suiLeg(ready.body.mintLeg), suiRelayer);
    expect(minted.ok).toBe(true);
    expect((await beds.suiUsdcOf(suiOwner)) - before).toBe(24_972_502n);
    expect((await beds.suiUsdcOf(SUI_CCTP_FEE_RECIPIENT)) - fees).toBe(2_498n);
    // The same message again: the used nonce aborts it on Sui.
    expect((await beds.executeSuiLeg(suiLeg(ready.body.mintLeg), suiWallet)).ok).toBe(false);

    const delivered = await deliver({ planId: document.planId, destTxId: minted.digest });
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '24972502',
      destTxId: minted.digest,
    });
    expect(await balance(solanaOwner, 'solana', 'in_flight')).toBe(0n);
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(24_972_502n);
    const replay = await deliver({ planId: document.planId, destTxId: minted.digest }).expect(200);
    expect(replay.body).toMatchObject({ credited: false, replay: true });
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(24_972_502n);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it('Sui → Solana: fast is refused out of Sui; standard burns on Sui and mints to the owner’s USDC account on Solana, once', async () => {
    const lane = {
      sourceChain: 'sui',
      destChain: 'solana',
      amountMicros: '20000000',
      sourceAddress: suiOwner,
      destinationAddress: solanaOwner,
    };
    const fast = await plan({ ...lane, speed: 'fast' }).expect(200);
    expect(fast.body).toMatchObject({
      status: 'blocked',
      blockers: [{ code: 'bridge_rail_unavailable' }],
    });
    const res = await plan(lane).expect(200);
    const document = BridgePlanDocument.parse(res.body);
    expect(document).toMatchObject({
      status: 'prepared',
      speed: 'standard',
      burnAmountMicros: '19980000',
      minReceivedMicros: '19980000',
      feeLines: [
        { kind: 'service_bridge_fee', amountMicros: '20000' },
        { kind: 'rail_fee', amountMicros: '0' },
      ],
      disclosure: { refundTo: suiOwner },
    });
    expect(beds.iris.requests).toContain('/v2/burn/USDC/fees/8/5');
    const burn = document.legs?.find((leg) => leg.action === 'burn');
    if (!burn) throw new Error('no burn leg');
    const suiBefore = await beds.suiUsdcOf(suiOwner);
    const burned = await beds.executeSuiLeg(suiLeg(burn), suiWallet);
    expect(burned.ok).toBe(true);
    expect(suiBefore - (await beds.suiUsdcOf(suiOwner))).toBe(20_000_000n);
    const settled = await settle(document.planId, burn.index, burned.digest);
    expect(settled.body).toMatchObject({ status: 'confirmed' });
    expect(await balance(suiOwner, 'sui', 'in_flight')).toBe(19_980_000n);

    const ready = await deliver({ planId: document.planId }).expect(200);
    expect(ready.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(ready.body.mintLeg).toMatchObject({ action: 'mint', encoding: 'solana-v0-base64' });
    const held = beds.solana.usdcBalance(wallet.publicKey);
    const mintTx = sendOnSolana(ready.body.mintLeg);
    expect(beds.solana.usdcBalance(wallet.publicKey) - held).toBe(19_980_000n);

    const liquid = await balance(solanaOwner, 'solana', 'liquid');
    const delivered = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '19980000',
    });
    expect(await balance(suiOwner, 'sui', 'in_flight')).toBe(0n);
    expect((await balance(solanaOwner, 'solana', 'liquid')) - liquid).toBe(19_980_000n);
    const replay = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(replay.body).toMatchObject({ credited: false, replay: true });
    expect((await balance(solanaOwner, 'solana', 'liquid')) - liquid).toBe(19_980_000n);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });

  it("Solana → Sui: another plan's mint credits nothing; the keeper's watch finds that plan's mint on Sui and credits it once", async () => {
    const first = await burnOnSolana('5000000');
    const second = await burnOnSolana('6000000');
    const leg = (await deliver({ planId: second.planId }).expect(200)).body.mintLeg;
    const minted = await beds.executeSuiLeg(suiLeg(leg), suiRelayer);
    expect(minted.ok).toBe(true);
    const liquid = await balance(suiOwner, 'sui', 'liquid');
    const forged = await deliver({ planId: first.planId, destTxId: minted.digest }).expect(422);
    expect(forged.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(liquid);
    const status = await deliver({ planId: first.planId }).expect(200);
    expect(status.body).toMatchObject({ bridgeStatus: 'in_flight' });

    // Nobody reported the second mint: the watch finds it (nonce, source domain 5) and credits
    // it; the first plan's message was never minted and waits.
    const secondNet = 5_994_000n - (5_994_000n * 100n + 999_999n) / 1_000_000n;
    expect(await watch()).toMatchObject({ delivered: 1, awaitingMint: 1, errors: 0 });
    expect((await balance(suiOwner, 'sui', 'liquid')) - liquid).toBe(secondNet);
    expect(await watch()).toMatchObject({ delivered: 0, awaitingMint: 1, errors: 0 });
    const reported = await deliver({ planId: second.planId, destTxId: minted.digest });
    expect(reported.body).toMatchObject({ credited: false, replay: true });
    expect((await balance(suiOwner, 'sui', 'liquid')) - liquid).toBe(secondNet);
    expect(await balance(solanaOwner, 'solana', 'in_flight')).toBe(4_995_000n);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});
