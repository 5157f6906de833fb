import { buildOpenApiDocument } from './openapi';
import { routeList } from './manifest/allRoutes';
import { WebhookCreateRequest, WebhookIdParams } from './webhookRequests';
import { WEBHOOK_EVENT_SCHEMA_VERSION, WebhookEventType } from './webhookEventType';
import { WEBHOOK_EVENT_SCHEMAS, WebhookEvent } from './webhookEvents';

const event = {
  id: 'evt_0123456789abcdef0123456789abcdef',
  type: 'deposit.settled',
  schemaVersion: WEBHOOK_EVENT_SCHEMA_VERSION,
  createdAt: '2026-02-01T10:00:00.000Z',
  data: {
    planId: 'plan_1',
    legIndex: 0,
    chain: 'solana',
    wallet: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
    txId: '5j7s…',
    opportunityId: null,
    venueId: null,
    quotedAmountMicros: '2500000',
    amountMicros: '2500000',
  },
};

describe('webhook events', () => {
  it('the seven SPEC types, reconciliation.drift, auto_pay.paid, plan.divergence and plan.simulated, one envelope schema each', () => {
    expect(WebhookEventType.options).toHaveLength(11);
    expect(WebhookEventType.options.slice(-4)).toEqual([
      'reconciliation.drift',
      'auto_pay.paid',
      'plan.divergence',
      'plan.simulated',
    ]);
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS)).toEqual(WebhookEventType.options);
  });

  it('the envelope is checked by type', () => {
    expect(WebhookEvent.parse(event)).toEqual(event);
    expect(WebhookEvent.safeParse({ ...event, type: 'position.updated' }).success).toBe(false);
    expect(
      WebhookEvent.safeParse({ ...event, data: { ...event.data, amountMicros: 2.5 } }).success,
    ).toBe(false);
    expect(WebhookEvent.safeParse({ ...event, id: 'evt_1' }).success).toBe(false);
  });

  it('the OpenAPI document carries every type as a webhook with the signature header', () => {
    const document = buildOpenApiDocument(routeList) as {
      webhooks: Record<string, { post: { parameters: { name: string }[] } }>;
    };
    expect(Object.keys(document.webhooks)).toEqual(WebhookEventType.options);
    for (const hook of Object.values(document.webhooks)) {
      expect(hook.post.parameters.map((parameter) => parameter.name)).toEqual([
        'X-SVC-Signature',
        'X-SVC-Event-Id',
        'X-SVC-Event-Type',
      ]);
    }
  });

  it('a create request names known types once; ids are whk_ + 32 hex', () => {
    const url = 'https://hooks.example.com/';
    expect(WebhookCreateRequest.safeParse({ url, eventTypes: ['deposit.settled'] }).success).toBe(
      true,
    );
    expect(WebhookCreateRequest.safeParse({ url, eventTypes: ['nope'] }).success).toBe(false);
    expect(WebhookCreateRequest.safeParse({ url, eventTypes: [] }).success).toBe(false);
    expect(
      WebhookCreateRequest.safeParse({ url, eventTypes: ['apy.updated', 'apy.updated'] }).success,
    ).toBe(false);
    expect(WebhookIdParams.safeParse({ id: 'sample-id' }).success).toBe(false);
  });
});
