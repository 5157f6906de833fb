import type { SettlementLeg } from '@yieldrouter/ledger';
import type { SettleLegResult } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';

/** A leg as a settle call answers it (`reviewReason` once its outcome is known). */
export function settleResult(
  leg: SettlementLeg & { readonly reviewReason?: string | null },
  replay: boolean,
): SettleLegResult {
  return {
    planId: leg.planId,
    legIndex: leg.legIndex,
    status: leg.status === 'unsigned' || leg.status === 'submitted' ? 'pending' : leg.status,
    txId: leg.txId ?? '',
    quotedAmountMicros: formatMicros(leg.amountMicros),
    settledAmountMicros:
      leg.settledAmountMicros === null ? null : formatMicros(leg.settledAmountMicros),
    reason: leg.failureReason,
    reviewReason: leg.reviewReason ?? null,
    replay,
  };
}

/** A leg that is final: a replay for the same txId, a conflict for another; else undefined. */
export function finalResult(
  leg: SettlementLeg & { readonly reviewReason?: string | null },
  txId: string,
): SettleLegResult | undefined {
  if (leg.status !== 'confirmed' && leg.status !== 'failed') return undefined;
  if (leg.txId === txId) return settleResult(leg, true);
  throw new EngineError(
    'SETTLEMENT_CONFLICT',
    `body.txId: leg ${leg.legIndex} of ${leg.planId} already ${leg.status} with ${leg.txId ?? 'no transaction'}`,
    'body.txId',
  );
}
