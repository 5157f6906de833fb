// Bare-SDK equivalents of the Sui adapter's work: @mysten/sui Transactions, raw JSON-RPC reads.
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { toBase64 } from '@mysten/sui/utils';
import { planIdToBytes } from '@yieldrouter/schemas';
import type { SuiRefInfo } from './bedInfo';
import { expectAmount } from './checks';
import { rawJsonRpc } from './rawJsonRpc';

const SUI_COIN_TYPE = '0x2::sui::SUI';

export interface SuiDepositInput {
  readonly owner: string;
  readonly planId: string;
  readonly amountMicros: bigint;
  readonly usdcCoinType: string;
}

/**
 * A route's wallet leg (liquid stays in the owner's wallet): the plan id as a pure input, USDC as
 * a `coinWithBalance` intent sent back to the owner, sender set, serialized with `toJSON`
 * (unresolved, no RPC).
 */
export async function suiDepositJson(input: SuiDepositInput): Promise<string> {
  const tx = new Transaction();
  tx.setSender(input.owner);
  tx.pure.vector('u8', planIdToBytes(input.planId));
  const coin = tx.add(coinWithBalance({ type: input.usdcCoinType, balance: input.amountMicros }));
  tx.transferObjects([coin], tx.pure.address(input.owner));
  return tx.toJSON({ supportedIntents: ['CoinWithBalance'] });
}

/** Every ref the final bytes need. */
export interface SuiDepositRefs {
  readonly gas: SuiRefInfo;
  readonly gasPrice: bigint;
  readonly gasBudget: bigint;
  readonly usdcCoin: SuiRefInfo;
}

/**
 * The same leg as final BCS bytes: gas payment, price and budget set, the exact amount split off
 * the owner's USDC coin and sent back to the owner; `build()` offline, base64.
 */
export async function suiDepositBytes(
  input: SuiDepositInput,
  refs: SuiDepositRefs,
): Promise<string> {
  const tx = new Transaction();
  tx.setSender(input.owner);
  tx.setGasOwner(input.owner);
  tx.setGasPayment([{ ...refs.gas }]);
  tx.setGasPrice(refs.gasPrice);
  tx.setGasBudget(refs.gasBudget);
  tx.pure.vector('u8', planIdToBytes(input.planId));
  const [coin] = tx.splitCoins(tx.objectRef({ ...refs.usdcCoin }), [
    tx.pure.u64(input.amountMicros),
  ]);
  if (!coin) throw new Error('splitCoins returned no coin');
  tx.transferObjects([coin], tx.pure.address(input.owner));
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
