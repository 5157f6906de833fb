import { insertPlan, readAccountBalance, verifyLedger } from '@yieldrouter/ledger';
import { newPlanId } from '@yieldrouter/schemas';
import { settleLeg } from './settleLeg';
import { fakeBase58, fakeChain } from './testing/fakeChain';
import { FAKE_STAKE_VENUE, fakeStakeVenues as venues } from './testing/stakeOnFakeChain';
import { FAKE_USDC, FAKE_WSOL, swapChain } from './testing/swapsOnFakeChain';
import { useFakeStakeDatabase } from './testing/useFakeStakeDatabase';

// Issue 40 ("to settle"): a cross-chain deposit that swaps on its source chain before it bridges
// (Solana → Base) books the swap in the owner's Solana wallet, the transfer's owner there, never
// under the plan's wallet (the owner's Base address) on Solana.

const { test } = useFakeStakeDatabase();

it('books a cross-family swap → bridge swap leg on the source-chain owner', async () => {
  const db = test().db;
  const solanaOwner = fakeBase58();
  const baseOwner = `0x${'ab'.repeat(20)}`;
  const planId = newPlanId();
  const leg = (action: string, effect: 'swap' | 'bridge_burn', amountMicros: bigint) => ({
    action,
    summary: action,
    amountMicros,
    settles: true,
    payload: {},
    effect,
    chain: 'solana',
    minSettleMicros: 0n,
    maxSettleMicros: 2n ** 62n,
  });
  await insertPlan(db, {
    id: planId,
    kind: 'deposit',
    status: 'prepared',
    chain: 'base',
    venueId: FAKE_STAKE_VENUE,
    owner: baseOwner,
    wallet: baseOwner,
    amountMicros: 9_000_000n,
    feeMicros: 0n,
    request: {},
    blockers: [],
    swap: {
      inputToken: FAKE_WSOL.symbol,
      outputToken: FAKE_USDC.symbol,
      inputTokenAddress: FAKE_WSOL.address,
      outputTokenAddress: FAKE_USDC.address,
      swapTarget: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
      minAmountOutMicros: '9000000',
      feeRecipient: null,
    },
    legs: [leg('swap', 'swap', 1_000_000_000n), leg('burn', 'bridge_burn', 9_000_000n)],
    bridgeTransfer: {
      rail: 'cctp',
      speed: 'standard',
      sourceChain: 'solana',
      destChain: 'base',
      owner: solanaOwner,
      recipient: baseOwner,
      burnMicros: 9_000_000n,
      maxRailFeeMicros: 0n,
      minReceivedMicros: 9_000_000n,
      serviceFeeMicros: 0n,
      feeRecipient: null,
    },
  });
  const chain = swapChain(fakeChain());
  const settled = await settleLeg({
    db,
    adapters: chain.adapters,
    venues,
    planId,
    legIndex: 0,
    txId: chain.swap(planId, 1_000_000_000n, 9_500_000n),
    now: new Date(),
  });
  expect(settled.status).toBe('confirmed');
  const liquid = (wallet: string) =>
    readAccountBalance(db, { wallet, chain: 'solana', bucket: 'liquid' });
  // Above the minimum the bridge takes, the fill stays in the owner's Solana wallet.
  expect(await liquid(solanaOwner)).toBe(500_000n);
  expect(await liquid(baseOwner)).toBe(0n);
  expect((await verifyLedger(db)).problems).toEqual([]);
});
