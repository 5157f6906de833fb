import type { UnsignedLeg } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';

/** A freshly built leg as a plan document shows it: unsigned, no transaction yet. */
export function legDocument(leg: UnsignedLeg, index: number) {
  return {
    index,
    action: leg.action,
    summary: leg.summary,
    amountMicros: formatMicros(leg.amountMicros),
    settles: leg.settles,
    status: 'unsigned' as const,
    txId: null,
    ...leg.payload,
  };
}
