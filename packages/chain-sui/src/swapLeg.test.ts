import { startSuiFake } from '@yieldrouter/chain-beds/sui';
import type { SuiFake, SuiFakePool } from '@yieldrouter/chain-beds/sui';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { createSuiAdapter } from './adapter';
import { buildSuiSwapLeg } from './swapLeg';
import type { SuiSwapLegRequest } from './swapLeg';
import {
  addUsdcSuiPool,
  OTHER_PLAN_ID,
  PLAN_ID,
  poolSwapLegRequest,
  suiConfig,
  SWAP_FEE_RECIPIENT,
  USDC,
} from './testFixtures';

// A Cetus swap leg end to end on the Sui fake: built offline from the routes, resolved and signed
// by the owner's wallet, run by the fake's pool; the receipt reads the amounts from the balance
// changes, a fill below the threshold aborts and fails the leg, another plan's is a mismatch.
const SUI = '0x2::sui::SUI';

let fake: SuiFake;
let pool: SuiFakePool;
let client: SuiJsonRpcClient;
beforeAll(async () => {
  fake = await startSuiFake();
  pool = addUsdcSuiPool(fake);
  client = new SuiJsonRpcClient({
    network: 'localnet',
    transport: new JsonRpcHTTPTransport({ url: fake.rpcUrl }),
  });
});
afterAll(() => fake.stop());

const legRequest = (owner: string, minimum: bigint, overrides: Partial<SuiSwapLegRequest> = {}) =>
  poolSwapLegRequest(pool, owner, minimum, overrides);

/** What the owner's wallet does with the leg: resolve against the chain, sign, execute. */
async function ownerSignsAndSends(wallet: Ed25519Keypair, request: SuiSwapLegRequest) {
  const leg = await buildSuiSwapLeg(request);
  if (leg.payload.encoding !== 'sui-transaction-json') throw new Error('not json');
  const tx = Transaction.from(leg.payload.transaction);
  tx.setGasPrice(fake.referenceGasPrice);
  tx.setGasBudget(10_000_000n);
  const bytes = await tx.build({ client });
  const { signature } = await wallet.signTransaction(bytes);
  const result = await client.executeTransactionBlock({ transactionBlock: bytes, signature });
  return result.digest;
}

function funded() {
  const wallet = new Ed25519Keypair();
  fake.setBalance(wallet.toSuiAddress(), SUI, 1_000_000_000n);
  fake.setBalance(wallet.toSuiAddress(), USDC, 50_000_000n);
  return wallet;
}

const adapter = () => createSuiAdapter(suiConfig({ rpcUrl: fake.rpcUrl }));
const query = (owner: string, txId: string, minimum: bigint, planId = PLAN_ID) => ({
  txId,
  planId,
  owner,
  to: pool.packageId,
  inputToken: USDC,
  outputToken: SUI,
  minAmountOutMicros: minimum,
  feeRecipient: SWAP_FEE_RECIPIENT,
});

it('settles from the balance changes: out to the owner (gas aside), in, the fee paid', async () => {
  const wallet = funded();
  const owner = wallet.toSuiAddress();
  const { amountOut } = pool.quote(true, 9_990_000n);
  const minimum = (amountOut * 99n) / 100n;
  const txId = await ownerSignsAndSends(wallet, legRequest(owner, minimum));

  const receipt = await adapter().readSwapReceipt?.(query(owner, txId, minimum));
  expect(receipt).toEqual({
    status: 'confirmed',
    txId,
    amountInMicros: 10_000_000n,
    amountOutMicros: amountOut,
    feePaidMicros: 10_000n,
    block: expect.any(String),
  });
  // Another plan's leg: the memo differs, nothing is believed.
  expect(await adapter().readSwapReceipt?.(query(owner, txId, minimum, OTHER_PLAN_ID))).toEqual({
    status: 'mismatch',
    txId,
    reason: "not this swap leg's: it does not carry this plan id",
  });
});

it('a fill below the minimum aborts on chain and fails the leg', async () => {
  const wallet = funded();
  const owner = wallet.toSuiAddress();
  const { amountOut } = pool.quote(true, 9_990_000n);
  const txId = await ownerSignsAndSends(wallet, legRequest(owner, amountOut + 1n));
  const receipt = await adapter().readSwapReceipt?.(query(owner, txId, amountOut + 1n));
  expect(receipt).toMatchObject({
    status: 'failed',
    txId,
    reason: expect.stringMatching(/check_coin_threshold/),
  });
  expect((await client.getBalance({ owner, coinType: USDC })).totalBalance).toBe('50000000');
});

it('refuses routes that do not add up to the amount in', async () => {
  await expect(
    buildSuiSwapLeg(legRequest(funded().toSuiAddress(), 1n, { amountInMicros: 10_000_001n })),
  ).rejects.toMatchObject({ name: 'InvalidChainInputError', field: 'routes' });
});
