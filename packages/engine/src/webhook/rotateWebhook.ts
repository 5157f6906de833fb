import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import { rotateWebhookSubscriptionKey } from '@yieldrouter/ledger';
import type { WebhookWithKey } from '@yieldrouter/schemas';
import type { HmacKeyCipher } from '@yieldrouter/webhooks/server';
import { generateHmacKey } from '@yieldrouter/webhooks/server';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import { webhookDocument } from './webhookDocument';

export interface RotateWebhookParameters {
  readonly db: Books;
  readonly cipher: HmacKeyCipher;
  readonly ownerKeyId: string;
  readonly id: string;
  readonly overlapMs: number;
  readonly now: Date;
  /** Records the answer in the transaction that stores the new key (the audit trail). */
  readonly recordWrite?: WriteRecorder<WebhookWithKey> | undefined;
}

/**
 * Draws a new signing key and returns it (once). Until `previousKeyExpiresAt` (now +
 * `overlapMs`) deliveries carry a signature under the replaced key too, so a receiver can
 * switch keys without missing a delivery. Another owner's or an unknown subscription is 404.
 */
export async function rotateWebhook(parameters: RotateWebhookParameters): Promise<WebhookWithKey> {
  const hmacKey = generateHmacKey();
  const rotation = {
    id: parameters.id,
    ownerKeyId: parameters.ownerKeyId,
    keySealed: parameters.cipher.encrypt(hmacKey, parameters.id),
    overlapMs: parameters.overlapMs,
    now: parameters.now,
  };
  return recordedWrite(
    parameters.db,
    async (client) => {
      const record = await rotateWebhookSubscriptionKey(client, rotation);
      if (!record) throw webhookNotFound(parameters.id);
      return { ...webhookDocument(record), hmacKey };
    },
    parameters.recordWrite,
  );
}

/** 404 for a subscription the caller does not own (or that does not exist): never a 403. */
export function webhookNotFound(id: string): EngineError {
  return new EngineError('NOT_FOUND', `path.id: no webhook ${id} for this key`, 'path.id');
}
