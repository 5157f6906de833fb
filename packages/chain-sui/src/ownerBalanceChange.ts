import { normalizeStructTag } from '@mysten/sui/utils';
import { normalizeSuiOwner } from './address';
import type { TransactionView } from './shapes';

/** The owner's net change of `coinType` in the transaction (signed), undefined when none. */
export function ownerBalanceChange(
  view: Pick<TransactionView, 'balanceChanges'>,
  owner: string,
  coinType: string,
): bigint | undefined {
  let total: bigint | undefined;
  for (const change of view.balanceChanges) {
    if (change.owner === undefined || normalizeSuiOwner(change.owner) !== owner) continue;
    let type: string;
    try {
      type = normalizeStructTag(change.coinType);
    } catch {
      continue;
    }
    if (type === coinType) total = (total ?? 0n) + change.amount;
  }
  return total;
}
