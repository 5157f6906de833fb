import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcError, JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { SuiFakePool } from './cetusPool';
import { FAKE_GAS_CHARGED, FAKE_GAS_USED } from './render';
import type { SuiFake } from './server';
import { startSuiFake } from './server';

// sui_dryRunTransactionBlock: the bed pool's swap runs as execution would run it, in the node's
// answer shape (effects.gasUsed, status, balance changes, events), and nothing is committed.
const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
const SUI = '0x2::sui::SUI';

let fake: SuiFake;
let client: SuiJsonRpcClient;
let pool: SuiFakePool;

beforeAll(async () => {
  fake = await startSuiFake();
  client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
  pool = fake.addCetusPool({
    coinA: USDC,
    coinB: SUI,
    reserveA: 1_000_000_000_000n,
    reserveB: 250_000_000_000_000n,
    feeBps: 25n,
  });
});
afterAll(() => fake.stop());

/** USDC → SUI through the pool with a threshold, unsigned, no gas payment (the node mocks it). */
async function swapBytes(owner: string, amountIn: bigint, minimum: bigint): Promise<Uint8Array> {
  const tx = new Transaction();
  tx.setSender(owner);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(50_000_000_000n);
  tx.setGasPayment([]);
  tx.setExpiration({ None: true });
  const coin = tx.add(coinWithBalance({ type: USDC, balance: amountIn }));
  const [out] = tx.moveCall({
    target: `${pool.packageId}::cetus::swap_a2b`,
    typeArguments: [USDC, SUI],
    arguments: [
      tx.object(pool.globalConfig.objectId),
      tx.object(pool.pool.objectId),
      coin,
      tx.object.clock(),
    ],
  });
  if (!out) throw new Error('no output');
  tx.moveCall({
    target: `${pool.packageId}::router::check_coin_threshold`,
    typeArguments: [SUI],
    arguments: [out, tx.pure.u64(minimum)],
  });
  tx.transferObjects([out], owner);
  return tx.build({ client });
}

function funded(): string {
  const owner = new Ed25519Keypair().toSuiAddress();
  fake.setBalance(owner, SUI, 1_000_000_000n);
  fake.setBalance(owner, USDC, 30_000_000n);
  return owner;
}

it('runs the swap without committing it: gas used, balance changes (gas included), events', async () => {
  const owner = funded();
  const before = pool.reserves();
  const { amountOut } = pool.quote(true, 20_000_000n);
  const result = await client.dryRunTransactionBlock({
    transactionBlock: await swapBytes(owner, 20_000_000n, amountOut),
  });
  expect(result.effects.status).toEqual({ status: 'success' });
  expect(result.effects.gasUsed).toEqual(FAKE_GAS_USED);
  const changes = Object.fromEntries(
    result.balanceChanges.map((change) => [change.coinType, change.amount]),
  );
  expect(changes).toEqual({
    [USDC]: '-20000000',
    [SUI]: String(amountOut - FAKE_GAS_CHARGED),
  });
  expect(result.events[0]).toMatchObject({
    type: `${pool.packageId}::cetus::SwapEvent`,
    parsedJson: { amount_out: String(amountOut) },
  });
  expect(pool.reserves()).toEqual(before);
  expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('30000000');
  expect((await client.getBalance({ owner })).totalBalance).toBe('1000000000');
  expect(fake.calls()).not.toContain('sui_executeTransactionBlock');
});

it('an abort is a failure status with the error, gas still reported; nothing moves', async () => {
  const owner = funded();
  const { amountOut } = pool.quote(true, 20_000_000n);
  const result = await client.dryRunTransactionBlock({
    transactionBlock: await swapBytes(owner, 20_000_000n, amountOut + 1n),
  });
  expect(result.effects.status.status).toBe('failure');
  expect(result.effects.status.error).toMatch(/MoveAbort.*check_coin_threshold/);
  expect(result.effects.gasUsed).toEqual(FAKE_GAS_USED);
  expect(result.events).toEqual([]);
  expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('30000000');
});

it('refuses a stale input as execution does (-32002)', async () => {
  const owner = funded();
  const bytes = await swapBytes(owner, 1_000_000n, 1n);
  fake.setBalance(owner, USDC, 30_000_000n);
  const error = await client
    .dryRunTransactionBlock({ transactionBlock: bytes })
    .catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(JsonRpcError);
  expect((error as JsonRpcError).code).toBe(-32002);
});

it('with no gas payment, a leg may spend SUI off the mock gas coin: the change shows it and the gas', async () => {
  const owner = new Ed25519Keypair().toSuiAddress();
  fake.setBalance(owner, SUI, 1_000n);
  const tx = new Transaction();
  tx.setSender(owner);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(50_000_000_000n);
  tx.setGasPayment([]);
  tx.setExpiration({ None: true });
  const coin = tx.add(coinWithBalance({ type: SUI, balance: 400_000_000n }));
  const [out] = tx.moveCall({
    target: `${pool.packageId}::cetus::swap_b2a`,
    typeArguments: [USDC, SUI],
    arguments: [
      tx.object(pool.globalConfig.objectId),
      tx.object(pool.pool.objectId),
      coin,
      tx.object.clock(),
    ],
  });
  if (!out) throw new Error('no output');
  tx.transferObjects([out], owner);
  const result = await client.dryRunTransactionBlock({
    transactionBlock: await tx.build({ client }),
  });
  expect(result.effects.status).toEqual({ status: 'success' });
  const { amountOut } = pool.quote(false, 400_000_000n);
  const changes = Object.fromEntries(
    result.balanceChanges.map((change) => [change.coinType, change.amount]),
  );
  expect(changes).toEqual({
    [USDC]: String(amountOut),
    [SUI]: String(-400_000_000n - FAKE_GAS_CHARGED),
  });
  expect((await client.getBalance({ owner })).totalBalance).toBe('1000');
});
