import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import type { LegBuild, TransferLegRequest } from '@yieldrouter/schemas';
import { formatUnits, planIdToBytes, USDC_DECIMALS } from '@yieldrouter/schemas';
import { requireSuiAddress } from './address';
import type { ResolvedSuiConfig } from './config';
import { checkAmount, USDC_MISSING } from './legPlan';
import { WALLET_INTENTS } from './legs';
import { appendPlanTaggedSend } from './wallet/walletProof';

/**
 * One unsigned transfer leg (auto-pay's payouts): the owner sends `amountMicros` USDC to
 * `recipient`. Built offline as the other unresolved Sui legs are (`Transaction.toJSON()`, the
 * sender set, no gas): the plan id as a `vector<u8>` pure input, a `coinWithBalance` intent of
 * the amount (the owner's wallet merges and splits its USDC coins when it resolves the leg, so no
 * coin object is read here) and TransferObjects to the recipient. No Move call: only the
 * owner's own commands, so the transaction can succeed only if the owner holds the amount. No
 * USDC coin type configured → blocked `asset_not_configured`.
 *
 * @throws InvalidChainInputError for a bad owner, recipient, amountMicros or planId.
 * @example
 * await buildSuiTransfer(config, { planId, owner, recipient, amountMicros: 1_250_000n })
 * // { status: 'prepared', legs: [{ action: 'transfer', payload: { encoding: 'sui-transaction-json', … } }] }
 */
export async function buildSuiTransfer(
  config: ResolvedSuiConfig,
  request: TransferLegRequest,
): Promise<LegBuild> {
  const owner = requireSuiAddress('owner', request.owner);
  const recipient = requireSuiAddress('recipient', request.recipient);
  const amount = checkAmount(request.amountMicros);
  const planBytes = planIdToBytes(request.planId);
  const usdc = config.usdcCoinType;
  if (usdc === undefined) return { status: 'blocked', blockers: [USDC_MISSING] };

  const tx = new Transaction();
  tx.setSender(owner);
  appendPlanTaggedSend(
    tx,
    planBytes,
    tx.add(coinWithBalance({ type: usdc, balance: amount })),
    recipient,
  );
  const transaction = await tx.toJSON({ supportedIntents: WALLET_INTENTS });
  return {
    status: 'prepared',
    legs: [
      {
        chain: 'sui',
        action: 'transfer',
        summary: `Send ${formatUnits(amount, USDC_DECIMALS)} USDC from ${owner} to ${recipient} on Sui (plan ${request.planId})`,
        planId: request.planId,
        amountMicros: amount,
        settles: true,
        payload: { encoding: 'sui-transaction-json', transaction },
      },
    ],
  };
}
