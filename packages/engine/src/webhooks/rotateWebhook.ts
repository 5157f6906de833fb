import type { PrismaClientOrTransaction } from '@yieldrouter/ledger';
import { rotateWebhookSubscriptionKey } from '@yieldrouter/ledger';
import type { WebhookWithKey } from '@yieldrouter/schemas';
import type { HmacKeyCipher } from '@yieldrouter/webhooks/server';
import { generateHmacKey } from '@yieldrouter/webhooks/server';
import { EngineError } from '../errors';
import { webhookDocument } from './webhookDocument';

export interface RotateWebhookParameters {
  readonly db: PrismaClientOrTransaction;
  readonly cipher: HmacKeyCipher;
  readonly ownerKeyId: string;
  readonly id: string;
  readonly overlapMs: number;
  readonly now: Date;
}

/**
 * Draws a new signing key and returns it (once). Until `previousKeyExpiresAt` (now +
 * `overlapMs`) deliveries carry a signature under the replaced key too, so a receiver can
 * switch keys without missing a delivery. Another owner's or an unknown subscription is 404.
 */
export async function rotateWebhook(parameters: RotateWebhookParameters): Promise<WebhookWithKey> {
  const hmacKey = generateHmacKey();
  const record = await rotateWebhookSubscriptionKey(parameters.db, {
    id: parameters.id,
    ownerKeyId: parameters.ownerKeyId,
    keySealed: parameters.cipher.encrypt(hmacKey, parameters.id),
    overlapMs: parameters.overlapMs,
    now: parameters.now,
  });
  if (!record) throw webhookNotFound(parameters.id);
  return { ...webhookDocument(record), hmacKey };
}

/** 404 for a subscription the caller does not own (or that does not exist): never a 403. */
export function webhookNotFound(id: string): EngineError {
  return new EngineError('NOT_FOUND', `path.id: no webhook ${id} for this key`, 'path.id');
}
