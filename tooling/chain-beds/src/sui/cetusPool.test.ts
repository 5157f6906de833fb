import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { SuiFakePool } from './cetusPool';
import type { SuiFake } from './server';
import { startSuiFake } from './server';
import { FAKE_GAS_CHARGED } from './render';

// The fake runs a bed pool's swap for real: a wallet resolves the transaction against the fake
// (coins, the pool's signature), signs, executes; coins move and the receipt shows it.
const USDC = `0x${'a1'.repeat(32)}::usdc::USDC`;
const SUI = '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI';

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
    coinB: '0x2::sui::SUI',
    reserveA: 1_000_000_000_000n,
    reserveB: 250_000_000_000_000n,
    feeBps: 25n,
  });
});
afterAll(() => fake.stop());

/** USDC → SUI through the pool, the threshold checked, the output to the owner. */
function swapTransaction(owner: string, amountIn: bigint, minimum: bigint): Transaction {
  const tx = new Transaction();
  tx.setSender(owner);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const coin = tx.add(coinWithBalance({ type: USDC, balance: amountIn }));
  const [out] = tx.moveCall({
    target: `${pool.packageId}::cetus::swap_a2b`,
    typeArguments: [USDC, '0x2::sui::SUI'],
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
    typeArguments: ['0x2::sui::SUI'],
    arguments: [out, tx.pure.u64(minimum)],
  });
  tx.transferObjects([out], owner);
  return tx;
}

async function signAndExecute(wallet: Ed25519Keypair, tx: Transaction) {
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  return client.executeTransactionBlock({
    transactionBlock: bytes,
    signature,
    options: { showEffects: true, showEvents: true, showBalanceChanges: true },
  });
}

it('swaps: the input goes into the pool, the output to the owner, gas charged', async () => {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  fake.setBalance(owner, SUI, 1_000_000_000n);
  fake.setBalance(owner, USDC, 30_000_000n);
  const before = pool.reserves();
  const { amountOut, fee } = pool.quote(true, 20_000_000n);
  expect(fee).toBe(50_000n);

  const result = await signAndExecute(wallet, swapTransaction(owner, 20_000_000n, amountOut));
  expect(result.effects?.status).toEqual({ status: 'success' });
  const changes = Object.fromEntries(
    (result.balanceChanges ?? []).map((change) => [change.coinType, change.amount]),
  );
  expect(changes).toEqual({
    [USDC]: '-20000000',
    '0x2::sui::SUI': String(amountOut - FAKE_GAS_CHARGED),
  });
  expect(result.events?.[0]).toMatchObject({
    type: `${pool.packageId}::cetus::SwapEvent`,
    parsedJson: { a2b: true, amount_in: '20000000', amount_out: String(amountOut) },
  });
  expect(pool.reserves()).toEqual({ a: before.a + 20_000_000n, b: before.b - amountOut });
  const usdc = await client.getBalance({ owner, coinType: USDC });
  expect(usdc.totalBalance).toBe('10000000');
  const sui = await client.getBalance({ owner });
  expect(BigInt(sui.totalBalance)).toBe(1_000_000_000n + amountOut - FAKE_GAS_CHARGED);
});

it('aborts below the threshold: nothing moves but the gas', async () => {
  const wallet = new Ed25519Keypair();
  const owner = wallet.toSuiAddress();
  fake.setBalance(owner, SUI, 1_000_000_000n);
  fake.setBalance(owner, USDC, 30_000_000n);
  const before = pool.reserves();
  const { amountOut } = pool.quote(true, 20_000_000n);

  const result = await signAndExecute(wallet, swapTransaction(owner, 20_000_000n, amountOut + 1n));
  expect(result.effects?.status.status).toBe('failure');
  expect(result.effects?.status.error).toMatch(/MoveAbort.*check_coin_threshold.*, 1\) in command/);
  expect(result.balanceChanges).toEqual([
    expect.objectContaining({ coinType: '0x2::sui::SUI', amount: String(-FAKE_GAS_CHARGED) }),
  ]);
  expect(pool.reserves()).toEqual(before);
  expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('30000000');
});
