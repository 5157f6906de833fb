import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import type { SettleLegResult } from '@yieldrouter/schemas';
import { settleLeg } from './settleLeg';
import { NATIVE_ASSET } from './swapBooking';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import { fakeStakeVenues as venues } from './testing/stakeOnFakeChain';
import {
  FAKE_USDC,
  FAKE_WSOL,
  WSOL_ASSET,
  creditLiquid,
  holdFirstOutcome,
  storeGasSponsorPlan,
  storeSwapPlan,
  swapChain,
} from './testing/swapsOnFakeChain';
import type { SwapChain } from './testing/swapsOnFakeChain';
import { useFakeStakeDatabase } from './testing/useFakeStakeDatabase';

// Issue 40: a settlement books against the balances it read (a swap's input held, an unwrap's
// wrapped token held) only if they still hold under the booking's own locks. Each race is made
// deterministic: the second settlement has read its balance and is held just before its outcome
// is recorded while the first settles whole; then it goes on.

const { test } = useFakeStakeDatabase();

const SOL = 1_000_000_000n;
const USDC = 1_000_000n;

function settle(
  chain: SwapChain,
  planId: string,
  legIndex: number,
  txId: string,
  db = test().db,
): Promise<SettleLegResult> {
  return settleLeg({
    db,
    adapters: chain.adapters,
    venues,
    planId,
    legIndex,
    txId,
    now: new Date(),
  });
}

const liquid = (wallet: string, asset: string) =>
  readAccountBalance(test().db, { wallet, chain: 'solana', bucket: 'liquid', asset });

async function twoSwaps() {
  const wallet = fakeBase58();
  const chain = swapChain(fakeChain());
  await creditLiquid(test().db, wallet, 10n * USDC);
  const buy = await storeSwapPlan(test().db, wallet, FAKE_USDC, FAKE_WSOL, 10n * USDC);
  const sell = await storeSwapPlan(test().db, wallet, FAKE_WSOL, FAKE_USDC, SOL);
  return { wallet, chain, buy, sell };
}

it('settled one after the other, a buy then its sell leave no SOL on the books', async () => {
  const { wallet, chain, buy, sell } = await twoSwaps();
  await settle(chain, buy, 0, chain.swap(buy, 10n * USDC, SOL));
  await settle(chain, sell, 0, chain.swap(sell, SOL, 9n * USDC));
  expect(await liquid(wallet, WSOL_ASSET)).toBe(0n);
  expect(await liquid(wallet, 'USDC')).toBe(9n * USDC);
});

it('two swap settlements racing leave no phantom balance', async () => {
  const { wallet, chain, buy, sell } = await twoSwaps();
  // The sell reads the SOL held (0: the buy is not booked yet) and waits before it books.
  const held = holdFirstOutcome(test().db, sell);
  const selling = settle(chain, sell, 0, chain.swap(sell, SOL, 9n * USDC), held.db);
  await held.reached;
  await settle(chain, buy, 0, chain.swap(buy, 10n * USDC, SOL));
  held.release();
  expect(await selling).toMatchObject({ status: 'confirmed' });
  // The chain holds no SOL: neither may the books.
  expect(await liquid(wallet, WSOL_ASSET)).toBe(0n);
  expect(await liquid(wallet, 'USDC')).toBe(9n * USDC);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});

it('an unwrap racing the swap that bought its wrapped SOL leaves no phantom balance', async () => {
  const { wallet, chain, buy } = await twoSwaps();
  // A gas top-up whose own swap reverted; the owner unwraps the SOL the other swap bought.
  const topUp = await storeGasSponsorPlan(test().db, wallet, USDC);
  const reverted = await settle(chain, topUp, 0, chain.swap(topUp, USDC, SOL, { ok: false }));
  expect(reverted.status).toBe('failed');
  const held = holdFirstOutcome(test().db, topUp);
  const unwrapping = settle(chain, topUp, 1, chain.unwrap(topUp, SOL), held.db);
  await held.reached;
  await settle(chain, buy, 0, chain.swap(buy, 10n * USDC, SOL));
  held.release();
  expect(await unwrapping).toMatchObject({ status: 'confirmed' });
  expect(await liquid(wallet, WSOL_ASSET)).toBe(0n);
  expect(await liquid(wallet, NATIVE_ASSET)).toBe(SOL);
  expect(await liquid(wallet, 'USDC')).toBe(0n);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});
