import { readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import { settleLeg } from './settleLeg';
import { fakeStakeVenues as venues } from './testing/stakeOnFakeChain';
import { holdFirstOutcome } from './testing/swapsOnFakeChain';
import { useWalletMoneyDatabase } from './testing/walletMoneyBed';

// Issue 40: an exit that pays out more than it reserved takes the rest from liquid, as far as
// liquid holds it — read again under the booking's locks. Here the exit read liquid (0) and is
// held just before it books while a route credits liquid; it then books against what liquid
// holds now, and the books end where the chain does.

const M = 1_000_000n;
const { test, bed } = useWalletMoneyDatabase();

it('an exit long fill racing a credit to liquid takes its excess from the credit', async () => {
  const wallet = bed();
  const routed = await wallet.route(10n * M);
  await wallet.settle(routed, wallet.execute(routed, 10n * M));
  const exit = await wallet.withdraw(10n * M);
  const credit = await wallet.route(5n * M);
  expect(await wallet.books()).toMatchObject({ liquid: 0n, pendingOut: 10n * M });

  // The chain paid the owner 12 for the exit: 2 beyond its reservation, out of the wallet.
  const held = holdFirstOutcome(test().db, exit);
  const exiting = settleLeg({
    db: held.db,
    adapters: wallet.chain.adapters,
    venues,
    planId: exit,
    legIndex: 0,
    txId: wallet.execute(exit, 12n * M),
    now: new Date(),
  });
  await held.reached;
  await wallet.settle(credit, wallet.execute(credit, 5n * M));
  held.release();
  expect(await exiting).toMatchObject({ status: 'confirmed', settledAmountMicros: '12000000' });
  // 10 + 5 in, 12 out: the wallet holds 3, and so do the books.
  expect(
    await readAccountBalance(test().db, {
      wallet: wallet.wallet,
      chain: 'solana',
      bucket: 'liquid',
    }),
  ).toBe(3n * M);
  expect((await verifyLedger(test().db)).problems).toEqual([]);
});
