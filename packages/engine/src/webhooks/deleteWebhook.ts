import type { PrismaClient } from '@yieldrouter/ledger';
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
}: {
  db: PrismaClient;
  ownerKeyId: string;
  id: string;
  now: Date;
}): Promise<WebhookDeleted> {
  const deletedAt = await deleteWebhookSubscription(db, { id, ownerKeyId, now });
  if (!deletedAt) throw webhookNotFound(id);
  return { id, deleted: true, deletedAt: deletedAt.toISOString() };
}
