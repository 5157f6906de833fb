import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { SuiFake } from './server';
import { startSuiFake } from './server';
import type { SuiFakeYieldRouter } from './yieldRouter';

// The fake runs our router package's deposits as the Move code does: the coin goes into the
// router (through a registered adapter: the venue's receipt coin to the owner), the event names
// the plan, owner, adapter and amount; a wrong adapter aborts and nothing moves.
const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
const ADAPTER = `0x${'ad'.repeat(32)}`;
const RECEIPT = `0x${'b2'.repeat(32)}::susdc::SUSDC`;
const PLAN = [1, 2, 3, 4];

let fake: SuiFake;
let client: SuiJsonRpcClient;
let router: SuiFakeYieldRouter;

beforeAll(async () => {
  fake = await startSuiFake();
  client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
  router = fake.addYieldRouter({ venues: [{ adapter: ADAPTER, receiptCoinType: RECEIPT }] });
});
afterAll(() => fake.stop());

/** A funded owner's deposit of `amount` USDC, straight into the router or through `adapter`. */
async function deposit(amount: bigint, adapter?: string) {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  fake.setBalance(owner, '0x2::sui::SUI', 1_000_000_000n);
  fake.setBalance(owner, USDC, 10_000_000n);
  const tx = new Transaction();
  tx.setSender(owner);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const coin = tx.add(coinWithBalance({ type: USDC, balance: amount }));
  const planId = tx.pure.vector('u8', PLAN);
  tx.moveCall({
    target: `${router.packageId}::router::${adapter ? 'deposit_to_venue' : 'deposit'}`,
    typeArguments: [USDC],
    arguments: adapter
      ? [
          tx.object(router.router.objectId),
          tx.object(router.registry.objectId),
          coin,
          tx.pure.address(adapter),
          planId,
        ]
      : [tx.object(router.router.objectId), coin, planId],
  });
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  const result = await client.executeTransactionBlock({
    transactionBlock: bytes,
    signature,
    options: { showEffects: true, showEvents: true, showBalanceChanges: true },
  });
  return { owner, result };
}

it('deposit: the coin into the router, Deposited for the plan and owner', async () => {
  const before = router.held(USDC);
  const { owner, result } = await deposit(4_000_000n);
  expect(result.effects?.status.status).toBe('success');
  expect(result.events?.map((event) => [event.type, event.parsedJson])).toEqual([
    [`${router.packageId}::router::Deposited`, { plan_id: PLAN, owner, amount: '4000000' }],
  ]);
  expect(result.balanceChanges).toContainEqual(
    expect.objectContaining({ owner: { AddressOwner: owner }, amount: '-4000000' }),
  );
  expect(router.held(USDC) - before).toBe(4_000_000n);
});

it("deposit_to_venue: the venue's receipt coin to the owner, DepositedToVenue names the adapter", async () => {
  const { owner, result } = await deposit(3_000_000n, ADAPTER);
  expect(result.effects?.status.status).toBe('success');
  expect(result.events?.[0]).toMatchObject({
    type: `${router.packageId}::router::DepositedToVenue`,
    parsedJson: { plan_id: PLAN, owner, adapter: ADAPTER, amount: '3000000' },
  });
  expect(BigInt((await client.getBalance({ owner, coinType: RECEIPT })).totalBalance)).toBe(
    3_000_000n,
  );
});

it('an adapter the registry does not know aborts: nothing moves', async () => {
  const before = router.held(USDC);
  const { owner, result } = await deposit(1_000_000n, `0x${'ee'.repeat(32)}`);
  expect(result.effects?.status.status).toBe('failure');
  expect(result.events ?? []).toEqual([]);
  expect(BigInt((await client.getBalance({ owner, coinType: USDC })).totalBalance)).toBe(
    10_000_000n,
  );
  expect(router.held(USDC)).toBe(before);
});
