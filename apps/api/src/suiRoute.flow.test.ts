import request from 'supertest';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import type { SuiFake, SuiFakeSuilend } from '@yieldrouter/chain-beds/sui';
import { verifyLedger } from '@yieldrouter/ledger';
import { PlanDocument } from '@yieldrouter/schemas';
import { walletPosition } from './testing/solanaRouterApp';
import type { TestApp } from './testing/startTestApp';
import { testKeys } from './testing/startTestApp';
import type { SuiSwapBedApp } from './testing/startSuiSwapBedApp';
import { SUI_TEST_USDC, startSuiSwapBedApp } from './testing/startSuiSwapBedApp';
import {
  executeSuiLeg,
  expectBooksClean,
  harvestWallet,
  settleSuiLeg,
  signAndSettleSuiLeg,
  OWNER_AND_KEEPER_KEYS,
} from './testing/suiBedLegs';

// A Sui route through the API on the Sui bed, with no package of ours anywhere: liquid USDC on
// Sui stays in the owner's wallet. A route without stake is one leg in which the owner sends the
// amount to themselves (the plan id as an input, no Move call); the keeper's watch settles it
// from the coin its effects created for the owner, and liquid grows. A withdraw (exit from
// liquid) is the same proof on the way out. A route with stake is a deposit into the ready venue
// through the protocol's own function (Suilend here), harvested and withdrawn as any venue leg.
// The ledger verifies and reconciliation (wallet holdings, positions) finds no drift.
const SUI = '0x2::sui::SUI';

let bed: SuiSwapBedApp;
let sui: SuiFake;
let suilend: SuiFakeSuilend;
let t: TestApp;
let client: SuiJsonRpcClient;

beforeAll(async () => {
  bed = await startSuiSwapBedApp((fake) => {
    suilend = fake.addSuilend({ usdc: SUI_TEST_USDC, availableAmount: 1_000_000_000_000n });
    return {
      // Our Sui package ids stay configured (served by /svc/packages): no leg calls them.
      SVC_SUI_PACKAGE_ID: `0x${'5e'.repeat(32)}`,
      SVC_SUI_YIELD_ROUTER_ID: `0x${'5f'.repeat(32)}`,
      SVC_VENUE_IDS: JSON.stringify({ suilend: suilend.ids }),
      SVC_API_KEYS: OWNER_AND_KEEPER_KEYS,
    };
  });
  ({ sui, t, client } = bed);
}, 60_000);
afterAll(() => bed.close());

const owned = (path: string, body: Record<string, unknown>) =>
  request(t.app).post(`/api/v1${path}`).set('X-API-Key', testKeys.owner).send(body).expect(200);

const route = async (owner: string, amountMicros: string, stake: boolean) =>
  PlanDocument.parse(
    (await owned(`/wallets/${owner}/route`, { amountMicros, token: 'USDC', chain: 'sui', stake }))
      .body,
  );

const usdcOf = async (owner: string) =>
  BigInt((await client.getBalance({ owner, coinType: SUI_TEST_USDC })).totalBalance);

function newOwner(usdc: bigint) {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  sui.setBalance(owner, SUI, 5_000_000_000n);
  sui.setBalance(owner, SUI_TEST_USDC, usdc);
  return { wallet, owner };
}

it('route → sign → execute → keeper settles → liquid; withdraw the same way; books clean', async () => {
  const { wallet, owner } = newOwner(30_000_000n);
  const routed = await route(owner, '20000000', false);
  expect(routed).toMatchObject({ status: 'prepared', chain: 'sui', feeMicros: '0' });
  const { bytes, stored } = await signAndSettleSuiLeg(bed, routed, wallet);
  // The signed transaction calls no Move function: nothing of ours, nor of anyone else.
  const signed = Transaction.from(bytes).getData();
  expect(signed.commands.filter((command) => command.MoveCall)).toEqual([]);
  expect(stored.legs.map((leg) => [leg.status, leg.settledAmountMicros])).toEqual([
    ['confirmed', '20000000'],
  ]);
  // Liquid on Sui is the owner's own USDC: all 30 are still in their wallet.
  expect(await usdcOf(owner)).toBe(30_000_000n);
  expect(await walletPosition(t, owner)).toMatchObject({
    liquidMicros: '20000000',
    pendingInMicros: '0',
  });
  await expectBooksClean(bed);

  const exit = PlanDocument.parse(
    (await owned(`/wallets/${owner}/withdraw`, { amountMicros: '5000000', chain: 'sui' })).body,
  );
  expect(exit).toMatchObject({ status: 'prepared', feeMicros: '0' });
  const out = await signAndSettleSuiLeg(bed, exit, wallet);
  expect(out.stored.legs.map((leg) => [leg.status, leg.settledAmountMicros])).toEqual([
    ['confirmed', '5000000'],
  ]);
  expect(await walletPosition(t, owner)).toMatchObject({
    liquidMicros: '15000000',
    pendingOutMicros: '0',
  });
  await expectBooksClean(bed);
});

it("a route leg's transaction signed by another wallet settles nothing", async () => {
  const { owner } = newOwner(30_000_000n);
  const routed = await route(owner, '7000000', false);
  // Someone else signs the leg's transaction for their own wallet (same plan id, their coin).
  const stranger = newOwner(30_000_000n);
  const { digest } = await executeSuiLeg(bed, routed, stranger.wallet);
  const stored = await settleSuiLeg(bed, routed.planId ?? '', digest);
  // Their coin even reached the owner (the leg names the owner as recipient), yet the
  // transaction is not the owner's: the watch lets go of it (the leg waits for its own
  // transaction again), the reservation stays, nothing is credited (the 7 USDC are money
  // outside the books).
  expect(await usdcOf(owner)).toBe(37_000_000n);
  expect(stored.legs[0]?.status).toBe('unsigned');
  expect(await walletPosition(t, owner)).toMatchObject({
    liquidMicros: '0',
    pendingInMicros: '7000000',
  });
  expect((await verifyLedger(t.db)).problems).toEqual([]);
});

it('route with stake → suilend through its own function → harvest → withdraw; books clean', async () => {
  const { wallet, owner } = newOwner(30_000_000n);
  const routed = await route(owner, '20000000', true);
  expect(routed).toMatchObject({ status: 'prepared', venueId: 'suilend' });
  const { bytes, stored } = await signAndSettleSuiLeg(bed, routed, wallet);
  const calls = Transaction.from(bytes)
    .getData()
    .commands.flatMap((command) => (command.MoveCall ? [command.MoveCall] : []));
  expect(calls.map((call) => `${call.module}::${call.function}`)).toEqual([
    'lending_market::deposit_liquidity_and_mint_ctokens',
  ]);
  expect(stored.legs.map((leg) => leg.status)).toEqual(['confirmed']);
  expect(await usdcOf(owner)).toBe(10_000_000n);
  const position = await t.db.position.findFirstOrThrow({
    where: { wallet: owner, venueId: 'suilend' },
  });
  const shares = BigInt(position.shares.toFixed());

  suilend.accrue(37_000_000_123n);
  const worth = suilend.redeemValue(shares);
  expect(worth).toBeGreaterThan(20_000_000n);
  const harvest = await harvestWallet(bed, owner);
  expect(harvest).toMatchObject({
    outcome: 'harvested',
    grossYieldMicros: String(worth - 20_000_000n),
  });

  const withdrawal = PlanDocument.parse(
    (
      await request(t.app)
        .post('/api/v1/svc/strategies/withdraw/plan')
        .send({ strategyId: 'suilend', owner, amountMicros: '15000000' })
        .expect(200)
    ).body,
  );
  const out = await signAndSettleSuiLeg(bed, withdrawal, wallet);
  expect(out.stored.legs.map((leg) => leg.status)).toEqual(['confirmed']);
  expect(await usdcOf(owner)).toBeGreaterThanOrEqual(25_000_000n);
  await expectBooksClean(bed);
});
