import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcError, JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { SuiFakePool } from './cetusPool';
import type { SuiFake } from './server';
import { startSuiFake } from './server';
import { FAKE_GAS_CHARGED, FAKE_GAS_USED } from './render';

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

/** USDC → SUI through the pool (SUI → USDC when `a2b` is false), the threshold checked. */
function swapTransaction(
  owner: string,
  amountIn: bigint,
  minimum: bigint,
  a2b = true,
): Transaction {
  const [coinIn, coinOut] = a2b ? [USDC, SUI] : [SUI, USDC];
  const tx = new Transaction();
  tx.setSender(owner);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const coin = tx.add(coinWithBalance({ type: coinIn, balance: amountIn }));
  const [out] = tx.moveCall({
    target: `${pool.packageId}::cetus::${a2b ? 'swap_a2b' : 'swap_b2a'}`,
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
    typeArguments: [coinOut],
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

describe('sui_dryRunTransactionBlock', () => {
  // The swap runs as execution would run it, in the node's answer shape (effects.gasUsed,
  // status, balance changes, events), and nothing is committed. No gas payment: the node makes
  // up a gas coin of the budget for the sender.
  const dryRun = async (tx: Transaction) => {
    tx.setGasBudget(50_000_000_000n);
    tx.setGasPayment([]);
    tx.setExpiration({ None: true });
    return client.dryRunTransactionBlock({ transactionBlock: await tx.build({ client }) });
  };
  const changesOf = (result: { balanceChanges: { coinType: string; amount: string }[] }) =>
    Object.fromEntries(result.balanceChanges.map((change) => [change.coinType, change.amount]));
  const funded = () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    fake.setBalance(owner, SUI, 1_000_000_000n);
    fake.setBalance(owner, USDC, 30_000_000n);
    return owner;
  };

  it('runs the swap uncommitted: gas used, balance changes (gas included), events', async () => {
    const owner = funded();
    const before = pool.reserves();
    const { amountOut } = pool.quote(true, 20_000_000n);
    const result = await dryRun(swapTransaction(owner, 20_000_000n, amountOut));
    expect(result.effects.status).toEqual({ status: 'success' });
    expect(result.effects.gasUsed).toEqual(FAKE_GAS_USED);
    expect(changesOf(result)).toEqual({
      [USDC]: '-20000000',
      '0x2::sui::SUI': String(amountOut - FAKE_GAS_CHARGED),
    });
    expect(result.events[0]).toMatchObject({
      type: `${pool.packageId}::cetus::SwapEvent`,
      parsedJson: { amount_out: String(amountOut) },
    });
    expect(pool.reserves()).toEqual(before);
    expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('30000000');
    expect((await client.getBalance({ owner })).totalBalance).toBe('1000000000');
  });

  it('an abort is a failure status with the error, gas still reported; nothing moves', async () => {
    const owner = funded();
    const { amountOut } = pool.quote(true, 20_000_000n);
    const result = await dryRun(swapTransaction(owner, 20_000_000n, amountOut + 1n));
    expect(result.effects.status.status).toBe('failure');
    expect(result.effects.status.error).toMatch(/MoveAbort.*check_coin_threshold/);
    expect(result.effects.gasUsed).toEqual(FAKE_GAS_USED);
    expect(result.events).toEqual([]);
    expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('30000000');
  });

  it('a leg may spend SUI off the mock gas coin: the change shows it and the gas', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    fake.setBalance(owner, SUI, 1_000n);
    const { amountOut } = pool.quote(false, 400_000_000n);
    const result = await dryRun(swapTransaction(owner, 400_000_000n, 1n, false));
    expect(result.effects.status).toEqual({ status: 'success' });
    expect(changesOf(result)).toEqual({
      [USDC]: String(amountOut),
      '0x2::sui::SUI': String(-400_000_000n - FAKE_GAS_CHARGED),
    });
    expect((await client.getBalance({ owner })).totalBalance).toBe('1000');
  });

  it('refuses a stale input as execution does (-32002)', async () => {
    const owner = funded();
    const tx = swapTransaction(owner, 1_000_000n, 1n);
    tx.setGasPayment([]);
    tx.setExpiration({ None: true });
    const bytes = await tx.build({ client });
    fake.setBalance(owner, USDC, 30_000_000n);
    const error = await client
      .dryRunTransactionBlock({ transactionBlock: bytes })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32002);
  });
});
