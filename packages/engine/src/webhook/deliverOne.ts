import type { Books } from '@yieldrouter/ledger';
import { claimDelivery } from '@yieldrouter/ledger';
import { recordSentAttempts, sendClaimedDelivery } from './sendClaimedDelivery';
import type { DeliveryAttemptResult } from './sendClaimedDelivery';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhookSender';
import type { WebhookSender } from './webhookSender';

/**
 * Sends one delivery by id (a queued job), only when it is its subscription's next one, due and
 * not being sent by anyone else; otherwise `skipped` with nothing done (a job that fires twice,
 * or early, is harmless). Same attempt and retry rules as {@link deliverDue}.
 *
 * @example
 * await deliverOne(prisma, job.data.deliveryId, { cipher, urlPolicy });
 */
export async function deliverOne(
  prisma: Books,
  deliveryId: string,
  sender: WebhookSender,
): Promise<DeliveryAttemptResult | { readonly deliveryId: string; readonly status: 'skipped' }> {
  const claimed = await claimDelivery(prisma, deliveryId, {
    now: (sender.now ?? (() => new Date()))(),
    leaseMs: (sender.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS) + 30_000,
  });
  if (!claimed) return { deliveryId, status: 'skipped' };
  const [result] = await recordSentAttempts(prisma, [await sendClaimedDelivery(claimed, sender)]);
  return result as DeliveryAttemptResult;
}
