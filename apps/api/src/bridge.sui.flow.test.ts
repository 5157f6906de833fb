import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Hex } from 'viem';
import { verifyLedger } from '@yieldrouter/ledger';
import { BridgePlanDocument } from '@yieldrouter/schemas';
import { anvilAccount } from '@yieldrouter/chain-beds/evm';
import type { TestApp } from './testing/startTestApp';
import { startTestApp, testKeys } from './testing/startTestApp';
import { bridgeCalls } from './testing/bridgeCalls';
import { divergencesOf, expectMintSimulated } from './testing/mintSimulation';
import { evmOwnerClients } from './testing/evmOwnerClients';
import { SUI_BED_USDC, startCctpSuiBeds } from './testing/cctpSuiBeds';
import type { CctpSuiBeds } from './testing/cctpSuiBeds';

// CCTP v2 between Base (an anvil with the stand-ins) and Sui (the Sui fake running Circle's
// packages), end to end: the owner signs the burn on one chain, the keeper settles it into
// in_flight, the Iris fake attests it (reading the source chain), the mint runs on the other
// chain, and only a confirmed mint of this plan's message to the owner credits liquid there, once.
const evmOwner = anvilAccount(4);
const relayer = anvilAccount(6);
const suiWallet = new Ed25519Keypair();
const suiOwner = suiWallet.toSuiAddress();
const ownerKey = `test-sui-bridge-${Date.now()}`;

let beds: CctpSuiBeds;
let t: TestApp;

beforeAll(async () => {
  beds = await startCctpSuiBeds();
  await beds.base.fixtures.mintUsdc(evmOwner.address, 500_000_000n);
  beds.sui.setBalance(suiOwner, '0x2::sui::SUI', 5_000_000_000n);
  beds.sui.setBalance(suiOwner, SUI_BED_USDC, 100_000_000n);
  t = await startTestApp({
    ...beds.settings,
    SVC_API_KEYS: JSON.stringify([
      { key: ownerKey, role: 'owner', wallets: [evmOwner.address, suiOwner] },
      { key: testKeys.owner, role: 'owner', wallets: ['*'] },
      { key: testKeys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await beds?.stop();
});

const calls = bridgeCalls(() => t, ownerKey);
const { deliver, balance, watch } = calls;
const plan = (body: Record<string, unknown>) => calls.plan({ amountMicros: '25000000', ...body });
const settleLeg = (planId: string | undefined, index: number, txId: string) =>
  calls.settle(planId, index, txId).expect(200);
const suiLeg = (leg: unknown) => (leg as { transaction: string }).transaction;

/** A Base → Sui plan prepared, its legs sent on Base and settled: the plan and its burn. */
async function burnOnBase() {
  const res = await plan({
    sourceChain: 'base',
    destChain: 'sui',
    sourceAddress: evmOwner.address,
    destinationAddress: suiOwner,
  }).expect(200);
  const document = BridgePlanDocument.parse(res.body);
  expect(document).toMatchObject({
    status: 'prepared',
    destChain: 'sui',
    burnAmountMicros: '24975000',
  });
  const legs = document.legs ?? [];
  const hashes = await evmOwnerClients(beds.base, evmOwner.privateKey).sendLegs(legs);
  for (const [position, leg] of legs.entries()) {
    if (leg.settles) await settleLeg(document.planId, leg.index, hashes[position] as Hex);
  }
  return document;
}

describe('CCTP v2 Base → Sui on the beds', () => {
  it("burns on Base into in_flight, mints on Sui, credits liquid@sui once; another plan's mint credits nothing", async () => {
    const first = await burnOnBase();
    expect(await balance(evmOwner.address, 'base', 'in_flight')).toBe(24_975_000n);
    const ready = await deliver({ planId: first.planId }).expect(200);
    expect(ready.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(ready.body.mintLeg).toMatchObject({ action: 'mint', encoding: 'sui-transaction-json' });
    // Issue 44: the mint leg dry-run on Sui as its recipient before anyone signs it.
    expectMintSimulated(ready.body, 'sui', first.legs?.length, 24_975_000n);

    // A second plan's burn, minted first: its mint is not the first plan's delivery.
    const second = await burnOnBase();
    const secondReady = await deliver({ planId: second.planId }).expect(200);
    const before = await beds.suiUsdcOf(suiOwner);
    const secondMint = await beds.executeSuiLeg(suiLeg(secondReady.body.mintLeg), suiWallet);
    expect(secondMint.ok).toBe(true);
    expect((await beds.suiUsdcOf(suiOwner)) - before).toBe(24_975_000n);
    const forged = await deliver({ planId: first.planId, destTxId: secondMint.digest }).expect(422);
    expect(forged.body).toMatchObject({ code: 'RECEIPT_MISMATCH', field: 'body.destTxId' });
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(0n);

    // The first plan's mint, relayed by anyone: credited once to the owner's liquid on Sui.
    const suiRelayer = new Ed25519Keypair();
    beds.sui.setBalance(suiRelayer.toSuiAddress(), '0x2::sui::SUI', 1_000_000_000n);
    const owned = await beds.executeSuiLeg(suiLeg(ready.body.mintLeg), suiRelayer);
    expect(owned.ok).toBe(true);
    const delivered = await deliver({ planId: first.planId, destTxId: owned.digest }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '24975000',
    });
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(24_975_000n);
    // The relayer's transaction moved the recipient's USDC as the dry run said: no divergence.
    expect(await divergencesOf(t, first.planId)).toEqual({ divergences: [], events: [] });
    const again = await deliver({ planId: first.planId, destTxId: owned.digest }).expect(200);
    expect(again.body).toMatchObject({ credited: false, replay: true });
    expect(await balance(suiOwner, 'sui', 'liquid')).toBe(24_975_000n);
    // The same message minted twice on chain: the second aborts (nonce used).
    const replayed = await beds.executeSuiLeg(suiLeg(ready.body.mintLeg), suiWallet);
    expect(replayed.ok).toBe(false);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});

describe('CCTP v2 Sui → Base on the beds', () => {
  it('burns on Sui into in_flight (from its receipt), mints on Base, credits liquid@base once', async () => {
    const res = await plan({
      sourceChain: 'sui',
      destChain: 'base',
      sourceAddress: suiOwner,
      destinationAddress: evmOwner.address,
    });
    expect(res.body).toMatchObject({ status: 'prepared', sourceChain: 'sui' });
    const document = BridgePlanDocument.parse(res.body);
    const burn = document.legs?.find((leg) => leg.action === 'burn');
    if (!burn) throw new Error('no burn leg');
    const suiBefore = await beds.suiUsdcOf(suiOwner);
    const supplyBefore = beds.cctp.supplyChange();
    const burned = await beds.executeSuiLeg(suiLeg(burn), suiWallet);
    expect(burned.ok).toBe(true);
    expect(suiBefore - (await beds.suiUsdcOf(suiOwner))).toBe(25_000_000n);
    expect(beds.cctp.supplyChange() - supplyBefore).toBe(-24_975_000n);
    const settled = await settleLeg(document.planId, burn.index, burned.digest);
    expect(settled.body).toMatchObject({ status: 'confirmed' });
    expect(await balance(suiOwner, 'sui', 'in_flight')).toBe(24_975_000n);

    const ready = await deliver({ planId: document.planId }).expect(200);
    expect(ready.body).toMatchObject({ bridgeStatus: 'in_flight', attestation: 'complete' });
    expect(ready.body.mintLeg).toMatchObject({ encoding: 'evm-transaction-request' });
    const owners = evmOwnerClients(beds.base, evmOwner.privateKey);
    const usdc = () => owners.balanceOf(beds.base.fixtures.usdc, evmOwner.address);
    const evmBefore = await usdc();
    const [mintTx] = await evmOwnerClients(beds.base, relayer.privateKey).sendLegs([
      ready.body.mintLeg,
    ]);
    expect((await usdc()) - evmBefore).toBe(24_975_000n);
    const delivered = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(delivered.body).toMatchObject({
      bridgeStatus: 'delivered',
      credited: true,
      deliveredMicros: '24975000',
    });
    expect(await balance(suiOwner, 'sui', 'in_flight')).toBe(0n);
    expect(await balance(evmOwner.address, 'base', 'liquid')).toBe(24_975_000n);
    const again = await deliver({ planId: document.planId, destTxId: mintTx }).expect(200);
    expect(again.body).toMatchObject({ credited: false, replay: true });
    expect(await balance(evmOwner.address, 'base', 'liquid')).toBe(24_975_000n);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});

describe("the keeper's bridge watch on Sui", () => {
  it('finds a mint on Sui relayed by anyone (by nonce and source domain) and credits it once', async () => {
    const document = await burnOnBase();
    const ready = await deliver({ planId: document.planId }).expect(200);
    const relayer = new Ed25519Keypair();
    beds.sui.setBalance(relayer.toSuiAddress(), '0x2::sui::SUI', 1_000_000_000n);
    expect((await beds.executeSuiLeg(suiLeg(ready.body.mintLeg), relayer)).ok).toBe(true);
    const before = await balance(suiOwner, 'sui', 'liquid');
    const counts = await watch();
    expect(counts).toMatchObject({ errors: 0, awaitingAttestation: 0, awaitingMint: 0 });
    expect(counts.delivered).toBeGreaterThanOrEqual(1);
    const credited = (await balance(suiOwner, 'sui', 'liquid')) - before;
    expect(credited).toBe(BigInt(counts.delivered) * 24_975_000n);
    const status = await deliver({ planId: document.planId }).expect(200);
    expect(status.body).toMatchObject({ bridgeStatus: 'delivered' });
    // Looked at again: nothing more is credited.
    expect(await watch()).toMatchObject({ delivered: 0, errors: 0 });
    expect((await balance(suiOwner, 'sui', 'liquid')) - before).toBe(credited);
    expect((await verifyLedger(t.db)).ok).toBe(true);
  });
});
