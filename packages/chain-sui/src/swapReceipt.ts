import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { isValidTransactionDigest, normalizeStructTag } from '@mysten/sui/utils';
import type { SwapReceipt, SwapReceiptQuery } from '@yieldrouter/schemas';
import { InvalidChainInputError, planIdToBytes } from '@yieldrouter/schemas';
import { normalizeSuiOwner, requireSuiAddress } from './address';
import { SUI_COIN_TYPE } from './config';
import { pureBytes, sameBytes } from './legCall';
import { ownerBalanceChange } from './ownerBalanceChange';
import { fetchTransactionView } from './fetchTransactionView';
import { rpcNotConfigured } from './rpc';
import type { TransactionInputView, TransactionView } from './shapes';

const SUI = normalizeStructTag(SUI_COIN_TYPE);

/** Why a transaction is not the swap leg's own, or undefined when it is. */
function notTheLeg(
  input: TransactionInputView,
  expected: { owner: string; packageId: string; planBytes: Uint8Array },
): string | undefined {
  if (normalizeSuiOwner(input.sender) !== expected.owner) {
    return `sent by ${input.sender}, not the owner`;
  }
  if (!input.inputs.some((item) => sameBytes(pureBytes(item), expected.planBytes))) {
    return 'it does not carry this plan id';
  }
  const swaps = input.moveCalls.some(
    (call) => normalizeSuiOwner(call.package) === expected.packageId && call.module === 'cetus',
  );
  const checks = input.moveCalls.some(
    (call) =>
      normalizeSuiOwner(call.package) === expected.packageId &&
      call.module === 'router' &&
      call.function === 'check_coin_threshold',
  );
  return swaps && checks ? undefined : 'no Cetus swap with a threshold through the quoted package';
}

/** The owner's change of `coinType`, without the gas the owner's coin paid when it is SUI. */
function changeOf(view: TransactionView, owner: string, coinType: string): bigint {
  const change = ownerBalanceChange(view, owner, coinType) ?? 0n;
  const gas = view.gas;
  const paidGas = coinType === SUI && gas?.owner && normalizeSuiOwner(gas.owner) === owner;
  return paidGas ? change + gas.charged : change;
}

/**
 * What the chain says about a Sui swap leg (a Cetus swap the owner signed). The transaction must
 * be the leg's own — sent by the owner, carrying the plan id, calling the quoted aggregator
 * package's `cetus` swap and `router::check_coin_threshold` — else `mismatch`; not found →
 * `pending`; failed effects (a threshold abort) → `failed`. Confirmed amounts are the balance
 * changes, never the quote: out = what the owner received in the output coin, in = what the
 * owner spent of the input coin (gas taken out when either is SUI), fee = what the recipient
 * received in the input coin. A fill below `minAmountOutMicros` → `failed`.
 *
 * @throws InvalidChainInputError for a malformed txId, owner, package or planId.
 */
export async function readSuiSwapReceipt(
  client: SuiJsonRpcClient | undefined,
  query: SwapReceiptQuery,
): Promise<SwapReceipt> {
  if (!isValidTransactionDigest(query.txId)) {
    throw new InvalidChainInputError('txId', 'txId: must be a base58 Sui transaction digest');
  }
  const owner = requireSuiAddress('owner', query.owner);
  const packageId = requireSuiAddress('to', query.to);
  const planBytes = planIdToBytes(query.planId);
  let inputCoin: string;
  let output: string;
  try {
    inputCoin = normalizeStructTag(query.inputToken);
    output = normalizeStructTag(query.outputToken);
  } catch {
    throw new InvalidChainInputError('inputToken', 'inputToken / outputToken: Move coin types');
  }
  if (!client) return rpcNotConfigured('swap receipt');
  const fetched = await fetchTransactionView(client, query.txId, 'swap receipt', () => true);
  if ('answer' in fetched) return fetched.answer;
  const { view } = fetched;
  const input = view.input;
  if (!input) throw new Error('unreachable: fetchTransactionView checked the input');
  const txId = query.txId;
  // Executed but not in a checkpoint yet: not final.
  if (view.checkpoint === null) return { status: 'pending', txId };
  const why = notTheLeg(input, { owner, packageId, planBytes });
  if (why) return { status: 'mismatch', txId, reason: `not this swap leg's: ${why}` };
  if (view.status === 'failure') {
    return { status: 'failed', txId, reason: view.error ?? 'execution failed' };
  }
  const amountOutMicros = changeOf(view, owner, output);
  const amountInMicros = -changeOf(view, owner, inputCoin);
  if (amountOutMicros <= 0n || amountInMicros <= 0n) {
    return { status: 'mismatch', txId, reason: 'the owner swapped nothing in this transaction' };
  }
  if (amountOutMicros < query.minAmountOutMicros) {
    return {
      status: 'failed',
      txId,
      reason: `filled ${amountOutMicros}, below the plan's minimum ${query.minAmountOutMicros}`,
    };
  }
  const recipient = query.feeRecipient === null ? undefined : normalizeSuiOwner(query.feeRecipient);
  const feePaidMicros =
    recipient === undefined || recipient === owner
      ? 0n
      : (ownerBalanceChange(view, recipient, inputCoin) ?? 0n);
  return {
    status: 'confirmed',
    txId,
    amountInMicros,
    amountOutMicros,
    feePaidMicros: feePaidMicros > 0n ? feePaidMicros : 0n,
    block: view.checkpoint,
  };
}
