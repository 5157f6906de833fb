import type { Books, WriteRecorder } from '@yieldrouter/ledger';
import {
  countWebhookSubscriptions,
  insertWebhookSubscription,
  newWebhookSubscriptionId,
} from '@yieldrouter/ledger';
import type { WebhookCreateRequest, WebhookWithKey } from '@yieldrouter/schemas';
import type {
  HmacKeyCipher,
  WebhookHostLookup,
  WebhookUrlPolicy,
} from '@yieldrouter/webhooks/server';
import { generateHmacKey, resolveWebhookUrl } from '@yieldrouter/webhooks/server';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import { webhookDocument } from './webhookDocument';
import type { WebhookOwner } from './webhookOwner';

/** Live subscriptions one owner key may hold: each one multiplies every event's deliveries. */
export const MAX_WEBHOOKS_PER_OWNER = 25;

export interface CreateWebhookParameters {
  readonly db: Books;
  readonly cipher: HmacKeyCipher;
  readonly urlPolicy: WebhookUrlPolicy;
  readonly lookup?: WebhookHostLookup;
  readonly owner: WebhookOwner;
  readonly input: WebhookCreateRequest;
  readonly now: Date;
  /** Records the answer in the transaction that stores the subscription (the audit trail). */
  readonly recordWrite?: WriteRecorder<WebhookWithKey> | undefined;
}

/**
 * Subscribes a URL: checks it (https, public host; DNS resolved now, and again before every
 * delivery), draws a signing key, stores it sealed, and returns the subscription with the key:
 * the only time it is shown. The subscription covers the owner key's wallets.
 * A refused URL is 400 naming `body.url`; a key at {@link MAX_WEBHOOKS_PER_OWNER} is 409.
 */
export async function createWebhook(parameters: CreateWebhookParameters): Promise<WebhookWithKey> {
  const { db, owner, input } = parameters;
  const target = await resolveWebhookUrl(input.url, {
    ...parameters.urlPolicy,
    ...(parameters.lookup ? { lookup: parameters.lookup } : {}),
  });
  if (!target.ok) {
    throw new EngineError('BAD_REQUEST', `body.url: ${target.reason}`, 'body.url');
  }
  if ((await countWebhookSubscriptions(db, owner.keyId)) >= MAX_WEBHOOKS_PER_OWNER) {
    throw new EngineError(
      'WEBHOOK_LIMIT_REACHED',
      `this key already has ${MAX_WEBHOOKS_PER_OWNER} webhooks; delete one first`,
    );
  }
  const id = newWebhookSubscriptionId();
  const hmacKey = generateHmacKey();
  const row = {
    id,
    ownerKeyId: owner.keyId,
    wallets: owner.wallets,
    url: input.url,
    eventTypes: input.eventTypes,
    description: input.description ?? null,
    keySealed: parameters.cipher.encrypt(hmacKey, id),
    now: parameters.now,
  };
  return recordedWrite(
    db,
    async (client) => ({
      ...webhookDocument(await insertWebhookSubscription(client, row)),
      hmacKey,
    }),
    parameters.recordWrite,
  );
}
