import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import { deleteWebhookSubscription } from '@yieldrouter/ledger';
import type { WebhookDeleted } from '@yieldrouter/schemas';
import { webhookNotFound } from './rotateWebhook';

/**
 * Deletes the owner's subscription; its pending deliveries end as `failed`. Another owner's,
 * an unknown or an already deleted subscription is 404.
 */
export async function deleteWebhook({
  db,
  ownerKeyId,
  id,
  now,
  recordWrite,
}: {
  db: Books;
  ownerKeyId: string;
  id: string;
  now: Date;
  /** Records the answer in the transaction that deletes the subscription (the audit trail). */
  recordWrite?: WriteRecorder<WebhookDeleted> | undefined;
}): Promise<WebhookDeleted> {
  const answer = (deletedAt: Date): WebhookDeleted => ({
    id,
    deleted: true,
    deletedAt: deletedAt.toISOString(),
  });
  const deletedAt = await deleteWebhookSubscription(
    db,
    { id, ownerKeyId, now },
    recordWrite && ((tx, at) => recordWrite(tx, answer(at))),
  );
  if (!deletedAt) throw webhookNotFound(id);
  return answer(deletedAt);
}
