import type { SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import type { ResolvedSuiConfig } from './config';
import type { SuiLegAction } from './legPlan';
import { planSuiLeg } from './legPlan';
import { preparedLeg } from './summary';
import { appendVenueLeg } from './venues/appendVenueLeg';
import { appendWalletProof } from './wallet/walletProof';

/** The intent the owner's wallet resolves into coins (merge + split) at signing time. */
export const WALLET_INTENTS = ['CoinWithBalance'];

/**
 * An unresolved leg: `Transaction.toJSON()` with the sender set, shared objects by id
 * (`tx.object(id)`), coins as `coinWithBalance` intents and no gas. The owner's wallet resolves
 * objects, coins and gas, then signs. A venue leg calls the protocol's own functions
 * (venues/venueCalls.ts); a wallet leg (target `router`: liquid USDC stays in the owner's wallet)
 * sends the owner a USDC coin of the amount, calling no package (wallet/walletProof.ts). Both
 * carry the plan id as a `vector<u8>` pure input. A venue withdrawal that burns receipts reads
 * the protocol's rate first (the only RPC call); everything else is built offline.
 */
export async function buildSuiLegJson(
  client: SuiJsonRpcClient | undefined,
  config: ResolvedSuiConfig,
  request: LegRequest,
  action: SuiLegAction,
): Promise<LegBuild> {
  const outcome = planSuiLeg(config, request, action);
  if (outcome.status === 'blocked') return outcome;
  const { plan } = outcome;

  const tx = new Transaction();
  tx.setSender(plan.owner);
  if (plan.venue) {
    const appended = await appendVenueLeg(client, tx, { ...plan, venue: plan.venue }, action, {
      object: (id) => tx.object(id),
      usdcCoin: (amount) => tx.add(coinWithBalance({ type: plan.usdc, balance: amount })),
      receiptCoin: (venue, receipts) =>
        venue.kind === 'navi'
          ? undefined
          : tx.add(coinWithBalance({ type: venue.receiptCoinType, balance: receipts })),
    });
    if (appended.status === 'blocked') return appended;
  } else {
    appendWalletProof(tx, plan, tx.add(coinWithBalance({ type: plan.usdc, balance: plan.amount })));
  }
  const transaction = await tx.toJSON({ supportedIntents: WALLET_INTENTS });
  return preparedLeg(plan, { encoding: 'sui-transaction-json', transaction });
}
