import { JsonRpcError } from '@mysten/sui/jsonRpc';
import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { Transaction } from '@mysten/sui/transactions';
import { normalizeStructTag } from '@mysten/sui/utils';
import type { GasSizing, GasSizingQuery } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import { readCoinBalance } from './balances';
import { SUI_COIN_TYPE } from './config';
import { ownerBalanceChange } from './ownerBalanceChange';
import { rpcNotConfigured, suiRpcFailure } from './rpc';
import type { DryRunGasView, DryRunView } from './shapes';
import { readDryRun } from './shapes';

/**
 * The wallet's budget rule (@mysten/sui `Transaction.build` without a budget, which is how the
 * owner's wallet resolves the adapter's legs: they carry no gas): computationCost plus a safe
 * overhead of 1000 × the gas price, plus storageCost − storageRebate when that is positive.
 * The gas coin must hold the whole budget for the node to accept the transaction.
 */
export const GAS_SAFE_OVERHEAD = 1000n;

/** The dry run's budget: the most the node checks the gas coin for (the wallet's rule above). */
export function suiGasBudget(used: DryRunGasView, gasPrice: bigint): bigint {
  const base = used.computationCost + GAS_SAFE_OVERHEAD * gasPrice;
  const withStorage = base + used.storageCost - used.storageRebate;
  return withStorage > base ? withStorage : base;
}

/** Budget for the dry run itself (the node's max_tx_gas on mainnet: 50 SUI); never signed. */
const DRY_RUN_BUDGET = 50_000_000_000n;
const SUI = normalizeStructTag(SUI_COIN_TYPE);

/** A payload the wallet would sign: `Transaction.toJSON()` text or BCS bytes in base64. */
function transactionOf(payload: { encoding: string; transaction: unknown }): Transaction {
  const { encoding, transaction } = payload;
  if (
    (encoding === 'sui-transaction-json' || encoding === 'sui-transaction-bcs-base64') &&
    typeof transaction === 'string'
  ) {
    return Transaction.from(transaction);
  }
  throw new Error(`a ${encoding} leg is not a Sui transaction this adapter sizes`);
}

/**
 * A leg as the owner's wallet resolves it (objects, its coins for `coinWithBalance`, the gas
 * price; no gas payment: the node mocks the gas coin), dry-run on the current state. Throws what
 * the node or the SDK throws (see `refusal`).
 */
export async function dryRunLeg(
  client: SuiJsonRpcClient,
  payload: { encoding: string; transaction: unknown },
  owner: string,
  gasPrice: bigint,
): Promise<DryRunView> {
  const tx = transactionOf(payload);
  tx.setSenderIfNotSet(owner);
  tx.setGasPrice(gasPrice);
  tx.setGasBudget(DRY_RUN_BUDGET);
  tx.setGasPayment([]);
  tx.setExpiration({ None: true });
  const bytes = await tx.build({ client });
  return readDryRun(await client.dryRunTransactionBlock({ transactionBlock: bytes }));
}

/**
 * A failure while resolving or dry-running: the node refusing the transaction (a JSON-RPC error
 * answer) or the SDK finding it cannot be built (e.g. the owner lacks the coins a
 * `coinWithBalance` intent asks for) says the leg cannot run; anything else (no answer, a
 * timeout, garbage) says the chain is unreadable.
 */
function failure(error: unknown, legIndex: number): GasSizing {
  const refused = refusal(error);
  return refused !== undefined
    ? { status: 'reverted', legIndex, detail: `leg ${legIndex}: ${refused}` }
    : suiRpcFailure(error, 'gas sizing');
}

/** Why the node or the SDK refused a leg (see `failure`), or undefined for an unreadable chain. */
export function refusal(error: unknown): string | undefined {
  const refused =
    error instanceof JsonRpcError || (error instanceof Error && error.name === 'Error');
  return refused ? error.message.slice(0, 300) : undefined;
}

/**
 * Sizes the gas a plan's unsigned Sui legs need (`payloads`): each is resolved against the chain
 * as the owner's wallet would (objects, the owner's coins for `coinWithBalance`, the reference
 * gas price) and dry-run (`sui_dryRunTransactionBlock`, no gas payment: the node mocks the coin)
 * on the current state, one by one. Per leg, what the owner must hold in SUI: the gas budget of
 * `suiGasBudget` (computationCost + 1000 × gas price, plus storageCost − storageRebate when
 * positive), plus any SUI the leg itself spends (its SUI balance change beyond the gas). Summed:
 * `nativeRequired`; `nativeHeld` is `suix_getBalance` of 0x2::sui::SUI. `details` carries the
 * summed costs, the gas price and the budgets.
 *
 * Fails closed: a dry run that aborts, or a leg the node or SDK refuses to build → `reverted`
 * with the reason and the leg; no RPC, or one down, slow or answering garbage → `unavailable`.
 */
export async function sizeSuiGas(
  client: SuiJsonRpcClient | undefined,
  query: GasSizingQuery,
): Promise<GasSizing> {
  const owner = requireSuiAddress('owner', query.owner);
  if (!client) return rpcNotConfigured('gas sizing');
  let gasPrice: bigint;
  try {
    gasPrice = BigInt(await client.getReferenceGasPrice());
  } catch (error) {
    return suiRpcFailure(error, 'gas sizing');
  }
  const totals = {
    computationCost: 0n,
    storageCost: 0n,
    storageRebate: 0n,
    gasBudget: 0n,
    suiSpent: 0n,
  };
  for (const [legIndex, payload] of (query.payloads ?? []).entries()) {
    let run;
    try {
      run = await dryRunLeg(client, payload, owner, gasPrice);
    } catch (error) {
      return failure(error, legIndex);
    }
    if (run.status === 'failure') {
      return {
        status: 'reverted',
        legIndex,
        detail: `leg ${legIndex}: the dry run failed: ${run.error ?? 'execution failed'}`,
      };
    }
    const used = run.gasUsed;
    const net = used.computationCost + used.storageCost - used.storageRebate;
    // The owner's SUI change includes the gas its (mock) coin paid: what is left is spent SUI.
    const spent = -((ownerBalanceChange(run, owner, SUI) ?? 0n) + net);
    totals.computationCost += used.computationCost;
    totals.storageCost += used.storageCost;
    totals.storageRebate += used.storageRebate;
    totals.gasBudget += suiGasBudget(used, gasPrice);
    totals.suiSpent += spent > 0n ? spent : 0n;
  }
  const held = await readCoinBalance(client, owner, SUI_COIN_TYPE, 'gas sizing');
  if (held.status !== 'ok') return held;
  return {
    status: 'ok',
    nativeRequired: totals.gasBudget + totals.suiSpent,
    nativeHeld: held.amount,
    details: {
      gasPrice: gasPrice.toString(),
      ...Object.fromEntries(Object.entries(totals).map(([key, value]) => [key, value.toString()])),
    },
  };
}
