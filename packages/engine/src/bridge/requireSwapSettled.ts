import type { Books } from '@yieldrouter/ledger';
import { EngineError } from '../errors';

/** The bridge legs that spend what a swap before them bought: the fee transfer and the burn. */
const SPENDS_THE_SWAP: ReadonlySet<string> = new Set(['bridge_fee', 'bridge_burn']);

/**
 * A cross-chain deposit that swaps into USDC first (swap → bridge → deposit) bridges what its
 * swap leg bought: the bridge's fee transfer and burn are sent and settle only once every swap
 * leg before them is confirmed (the USDC is then on the books, in liquid on the source chain).
 * Earlier (the swap unsigned, in flight, failed or expired): 409 SWAP_NOT_SETTLED, nothing sent
 * or recorded. Legs of any other effect, and plans with no swap leg, pass.
 */
export async function requireSwapSettled(
  db: Books,
  leg: {
    readonly planId: string;
    readonly legIndex: number;
    readonly effect: string;
  },
): Promise<void> {
  if (!SPENDS_THE_SWAP.has(leg.effect)) return;
  const open = await db.planLeg.findFirst({
    where: {
      planId: leg.planId,
      effect: 'swap',
      legIndex: { lt: leg.legIndex },
      status: { not: 'confirmed' },
    },
    select: { legIndex: true, status: true },
    orderBy: { legIndex: 'asc' },
  });
  if (!open) return;
  throw new EngineError(
    'SWAP_NOT_SETTLED',
    `leg ${leg.legIndex} of ${leg.planId} bridges the USDC its swap leg ${open.legIndex} buys, ` +
      `and that leg is ${open.status}: sign and settle the swap first, then this leg`,
    'legIndex',
  );
}
