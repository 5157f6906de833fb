import { WebhookCreateRequest, WebhookEventsQuery, WebhookIdParams } from '../webhookRequests';
import {
  WebhookDeleted,
  WebhookEventTypesDocument,
  WebhookEventsPage,
  WebhookList,
  WebhookWithKey,
} from '../webhookDocuments';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok } from './routeParts';

/** Webhooks: event types, subscriptions, key rotation and the event log. */
export const webhookRoutes = {
  // ── Webhooks ──────────────────────────────────────────────────────────
  listWebhookEventTypes: defineRoute({
    operationId: 'listWebhookEventTypes',
    method: 'get',
    path: '/svc/webhooks/events/types',
    versioned: true,
    auth: 'public',
    summary: 'The webhook event types (payloads: the `webhooks` section of this document).',
    tags: ['webhooks'],
    request: {},
    responses: ok(WebhookEventTypesDocument),
  }),
  createWebhook: defineRoute({
    operationId: 'createWebhook',
    method: 'post',
    path: '/svc/webhooks',
    versioned: true,
    auth: OWNER,
    audited: true,
    summary: "Subscribe a URL to event types for the key's wallets; returns hmacKey once.",
    description:
      'The URL must be https on a public host (checked with DNS now and before every delivery); a bad URL is 400 naming `body.url`. The subscription covers the wallets of the creating key.',
    tags: ['webhooks'],
    request: { body: WebhookCreateRequest },
    responses: {
      201: { description: 'Created; hmacKey is shown this once.', schema: WebhookWithKey },
    },
  }),
  listWebhooks: defineRoute({
    operationId: 'listWebhooks',
    method: 'get',
    path: '/svc/webhooks',
    versioned: true,
    auth: OWNER,
    summary: "This key's subscriptions (keys never shown).",
    tags: ['webhooks'],
    request: {},
    responses: ok(WebhookList),
  }),
  rotateWebhook: defineRoute({
    operationId: 'rotateWebhook',
    method: 'post',
    path: '/svc/webhooks/{id}/rotate',
    versioned: true,
    auth: OWNER,
    audited: true,
    summary: 'Rotate the signing key; the old key signs alongside during the overlap window.',
    description:
      'Returns the new hmacKey once. Until previousKeyExpiresAt (24 h by default) every delivery carries two v1= signatures, new key first; afterwards only the new one. Rotating again within the window drops the older key.',
    tags: ['webhooks'],
    request: { params: WebhookIdParams },
    responses: ok(WebhookWithKey, 'Rotated; the new hmacKey is shown this once.'),
  }),
  deleteWebhook: defineRoute({
    operationId: 'deleteWebhook',
    method: 'delete',
    path: '/svc/webhooks/{id}',
    versioned: true,
    auth: OWNER,
    audited: true,
    summary: "Delete a subscription (another key's is 404); pending deliveries end as failed.",
    tags: ['webhooks'],
    request: { params: WebhookIdParams },
    responses: ok(WebhookDeleted),
  }),
  listWebhookEvents: defineRoute({
    operationId: 'listWebhookEvents',
    method: 'get',
    path: '/svc/webhooks/events',
    versioned: true,
    auth: OWNER_AGENT,
    summary:
      "Events for the key's wallets, newest first, with delivery attempts; cursor pagination.",
    description:
      "Events of the key's wallets and market-wide events (no wallet). Owner keys see the deliveries of their own subscriptions; agent keys see every delivery of their wallets' events (subscription ids only).",
    tags: ['webhooks'],
    request: { query: WebhookEventsQuery },
    responses: ok(WebhookEventsPage),
  }),
} as const;
