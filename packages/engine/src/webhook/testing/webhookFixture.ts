// Test support for the webhook use cases: a database, a receiver on 127.0.0.1, a clock the test
// moves, and helpers to emit outbox events and run the keeper's two jobs. Never product code.
import type { OutboxEventInput } from '@yieldrouter/ledger';
import { insertOutboxEvents } from '@yieldrouter/ledger';
import { createTestDatabase } from '@yieldrouter/ledger/testing';
import type { TestDatabase } from '@yieldrouter/ledger/testing';
import type { WebhookEventType } from '@yieldrouter/schemas';
import { createHmacKeyCipher } from '@yieldrouter/webhooks/server';
import { startTestReceiver } from '@yieldrouter/webhooks/testing';
import type { TestReceiver } from '@yieldrouter/webhooks/testing';
import { createWebhook } from '../createWebhook';
import { deliverDue } from '../deliverDue';
import type { DeliverDueParameters } from '../deliverDue';
import { relayOutbox } from '../relayOutbox';
import type { WebhookSender } from '../webhookSender';

export const DEV_URLS = { allowInsecure: true, allowPrivate: true } as const;

export interface WebhookFixture {
  readonly test: TestDatabase;
  readonly receiver: TestReceiver;
  readonly sender: WebhookSender;
  /** The injected clock (delivery, signatures, and the receiver's tolerance check). */
  now(): Date;
  setNow(date: Date): void;
  advance(ms: number): void;
  subscribe(options: {
    wallets: string[];
    eventTypes: WebhookEventType[];
    path?: string;
    ownerKeyId?: string;
  }): Promise<{ id: string; hmacKey: string }>;
  /** Writes events to the outbox (as the engine does with a ledger change), at the clock. */
  emit(events: OutboxEventInput[]): Promise<string[]>;
  relay(): Promise<number>;
  deliver(overrides?: Partial<DeliverDueParameters>): ReturnType<typeof deliverDue>;
  close(): Promise<void>;
}

export async function startWebhookFixture(start: Date): Promise<WebhookFixture> {
  const test = await createTestDatabase();
  let clock = start;
  const receiver = await startTestReceiver({ now: () => clock.getTime() });
  const sender: WebhookSender = {
    cipher: createHmacKeyCipher('test-webhook-key-secret-0123456789abcdef'),
    urlPolicy: DEV_URLS,
    timeoutMs: 2000,
    random: () => 0.5,
    now: () => clock,
  };
  const keys = new Set<string>();
  return {
    test,
    receiver,
    sender,
    now: () => clock,
    setNow: (date) => {
      clock = date;
    },
    advance: (ms) => {
      clock = new Date(clock.getTime() + ms);
    },
    subscribe: async ({ wallets, eventTypes, path = '/hooks', ownerKeyId = 'key_owner' }) => {
      const created = await createWebhook({
        db: test.db,
        cipher: sender.cipher,
        urlPolicy: DEV_URLS,
        owner: { keyId: ownerKeyId, wallets },
        input: { url: receiver.url(path), eventTypes },
        now: clock,
      });
      keys.add(created.hmacKey);
      receiver.setKeys([...keys]);
      return { id: created.id, hmacKey: created.hmacKey };
    },
    emit: (events) => test.db.transaction((tx) => insertOutboxEvents(tx, events, clock)),
    relay: async () => (await relayOutbox(test.db, { now: clock })).events,
    deliver: (overrides = {}) => deliverDue(test.db, { ...sender, ...overrides }),
    close: async () => {
      await receiver.close();
      await test.drop();
    },
  };
}
