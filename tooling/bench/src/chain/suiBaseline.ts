// Bare-SDK equivalents of the Sui adapter's work: @mysten/sui Transactions, raw JSON-RPC reads.
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { toBase64 } from '@mysten/sui/utils';
import { planIdToBytes } from '@yieldrouter/schemas';
import type { SuiRefInfo } from './bedInfo';
import { expectAmount } from './checks';
import { rawJsonRpc } from './rawJsonRpc';

const SUI_COIN_TYPE = '0x2::sui::SUI';

/** The router deployment, as configured. */
export interface SuiRouterIds {
  readonly packageId: string;
  readonly routerId: string;
  readonly usdcCoinType: string;
}

export interface SuiDepositInput {
  readonly owner: string;
  readonly planId: string;
  readonly amountMicros: bigint;
}

const depositTarget = (ids: SuiRouterIds) => `${ids.packageId}::router::deposit` as const;

/**
 * `router::deposit<USDC>(router, coin, plan_id)` with the router by id and USDC as a
 * `coinWithBalance` intent, sender set, serialized with `toJSON` (unresolved, no RPC).
 */
export async function suiDepositJson(ids: SuiRouterIds, input: SuiDepositInput): Promise<string> {
  const tx = new Transaction();
  tx.setSender(input.owner);
  const coin = tx.add(coinWithBalance({ type: ids.usdcCoinType, balance: input.amountMicros }));
  tx.moveCall({
    target: depositTarget(ids),
    typeArguments: [ids.usdcCoinType],
    arguments: [tx.object(ids.routerId), coin, tx.pure.vector('u8', planIdToBytes(input.planId))],
  });
  return tx.toJSON({ supportedIntents: ['CoinWithBalance'] });
}

/** Every ref the final bytes need. */
export interface SuiDepositRefs {
  readonly gas: SuiRefInfo;
  readonly gasPrice: bigint;
  readonly gasBudget: bigint;
  readonly usdcCoin: SuiRefInfo;
  readonly routerInitialSharedVersion: string;
}

/**
 * The same deposit as final BCS bytes: gas payment, price and budget set, the exact amount split
 * off the owner's USDC coin, the router by shared ref; `build()` offline, base64.
 */
export async function suiDepositBytes(
  ids: SuiRouterIds,
  input: SuiDepositInput,
  refs: SuiDepositRefs,
): Promise<string> {
  const tx = new Transaction();
  tx.setSender(input.owner);
  tx.setGasOwner(input.owner);
  tx.setGasPayment([{ ...refs.gas }]);
  tx.setGasPrice(refs.gasPrice);
  tx.setGasBudget(refs.gasBudget);
  const router = tx.sharedObjectRef({
    objectId: ids.routerId,
    initialSharedVersion: refs.routerInitialSharedVersion,
    mutable: true,
  });
  const [coin] = tx.splitCoins(tx.objectRef({ ...refs.usdcCoin }), [
    tx.pure.u64(input.amountMicros),
  ]);
  if (!coin) throw new Error('splitCoins returned no coin');
  tx.moveCall({
    target: depositTarget(ids),
    typeArguments: [ids.usdcCoinType],
    arguments: [router, coin, tx.pure.vector('u8', planIdToBytes(input.planId))],
  });
  return toBase64(await tx.build());
}

export interface SuiRawReadParameters {
  readonly rpcUrl: string;
  readonly owner: string;
  readonly usdcCoinType: string;
  readonly mist: bigint;
  readonly usdcMicros: bigint;
}

/** Two `suix_getBalance` (SUI, USDC) in parallel with bare fetch; checks both against the seed. */
export async function rawSuiBalances({
  rpcUrl,
  owner,
  usdcCoinType,
  mist,
  usdcMicros,
}: SuiRawReadParameters): Promise<void> {
  const [sui, usdc] = (await Promise.all([
    rawJsonRpc(rpcUrl, 'suix_getBalance', [owner, SUI_COIN_TYPE]),
    rawJsonRpc(rpcUrl, 'suix_getBalance', [owner, usdcCoinType]),
  ])) as [{ totalBalance: string }, { totalBalance: string }];
  expectAmount('raw suix_getBalance SUI', BigInt(sui.totalBalance), mist);
  expectAmount('raw suix_getBalance USDC', BigInt(usdc.totalBalance), usdcMicros);
}
