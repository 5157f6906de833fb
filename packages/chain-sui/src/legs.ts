import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { LegBuild, LegRequest } from '@yieldrouter/schemas';
import { appendDeposit, appendWithdraw } from './commands';
import type { ResolvedSuiConfig } from './config';
import { planSuiLeg } from './legPlan';
import type { RouterAction } from './router';
import { preparedLeg } from './summary';

/** The intent the owner's wallet resolves into USDC coins (merge + split) at signing time. */
const WALLET_INTENTS = ['CoinWithBalance'];

/**
 * An unresolved leg: `Transaction.toJSON()` with the sender set, the router and registry by id
 * (`tx.object(id)`), USDC as a `coinWithBalance` intent and no gas. The owner's wallet resolves
 * objects, coins and gas, then signs. Built offline: no RPC call.
 */
export async function buildSuiLegJson(
  config: ResolvedSuiConfig,
  request: LegRequest,
  action: RouterAction,
): Promise<LegBuild> {
  const outcome = planSuiLeg(config, request, action);
  if (outcome.status === 'blocked') return outcome;
  const { plan } = outcome;

  const tx = new Transaction();
  tx.setSender(plan.owner);
  const objects = {
    router: tx.object(plan.routerId),
    registry: plan.venue ? tx.object(plan.venue.registryId) : undefined,
  };
  if (action === 'deposit') {
    const coin = tx.add(coinWithBalance({ type: plan.usdc, balance: plan.amount }));
    appendDeposit(tx, plan, objects, coin);
  } else {
    appendWithdraw(tx, plan, objects);
  }
  const transaction = await tx.toJSON({ supportedIntents: WALLET_INTENTS });
  return preparedLeg(plan, { encoding: 'sui-transaction-json', transaction });
}
