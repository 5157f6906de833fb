// `@yieldrouter/webhooks/server`: the sending side (Node only, never bundled into the SDK).
export { generateHmacKey } from './generateHmacKey';
export { createHmacKeyCipher, MIN_WEBHOOK_KEY_SECRET_LENGTH } from './hmacKeyCipher';
export type { HmacKeyCipher } from './hmacKeyCipher';
export { WebhookKeyError } from './webhookKeyError';
export { isPublicAddress } from './isPublicAddress';
export { validateWebhookUrl } from './validateWebhookUrl';
export type { ValidateWebhookUrlReturnType, WebhookUrlPolicy } from './validateWebhookUrl';
export { resolveWebhookUrl } from './resolveWebhookUrl';
export type {
  ResolveWebhookUrlParameters,
  ResolveWebhookUrlReturnType,
  WebhookHostLookup,
} from './resolveWebhookUrl';
export {
  nextAttemptDelay,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
} from './nextAttemptDelay';
export { scheduleNextAttempt, WEBHOOK_DELIVERY_WINDOW_MS } from './scheduleNextAttempt';
export type { ScheduleNextAttemptParameters } from './scheduleNextAttempt';
export {
  deliverWebhook,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_EVENT_TYPE_HEADER,
} from './deliverWebhook';
export type { DeliverWebhookParameters, DeliverWebhookReturnType } from './deliverWebhook';
