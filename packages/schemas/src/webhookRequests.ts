import { z } from 'zod';
import { WalletAddress } from './params';
import { WebhookEventType } from './webhookEventType';

// The webhook domain's requests: create a subscription, name one, page its events.

export const WebhookCreateRequest = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .meta({
      description:
        'Where deliveries are POSTed: https, a public host (private, loopback, link-local and local names are refused; checked again before every delivery). Redirects are not followed.',
      format: 'uri',
      // An address literal: a host name is resolved (and must be public) when the hook is made.
      examples: ['https://1.1.1.1/yield-router/webhook'],
    }),
  eventTypes: z
    .array(WebhookEventType)
    .min(1)
    .max(WebhookEventType.options.length)
    .refine((types) => new Set(types).size === types.length, { error: 'must not repeat a type' })
    .meta({ uniqueItems: true }),
  description: z.string().max(256).optional(),
});
export type WebhookCreateRequest = z.output<typeof WebhookCreateRequest>;

/** A subscription id in a path: `whk_` + 32 hex (anything else is 400, never a lookup). */
export const WebhookIdParams = z.strictObject({
  id: z
    .string()
    .max(36)
    .regex(/^whk_[0-9a-f]{32}$/, { error: 'must be a webhook id (whk_ + 32 hex)' }),
});

export const WebhookEventsQuery = z.strictObject({
  cursor: z.string().max(256).optional().meta({ description: 'nextCursor of the previous page.' }),
  limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Default 50.' }),
  type: WebhookEventType.optional(),
  wallet: WalletAddress.optional().meta({ description: "One of the key's wallets." }),
});
