import { createHmacKeyCipher } from '@yieldrouter/webhooks/server';
import type {
  HmacKeyCipher,
  WebhookHostLookup,
  WebhookUrlPolicy,
} from '@yieldrouter/webhooks/server';
import type { WebhookSettings } from '../config/webhookSettings';

/** What sending deliveries needs; the API and the keeper build it from the same settings. */
export interface WebhookSender {
  /** Opens the sealed signing keys (same server secret as the API that sealed them). */
  readonly cipher: HmacKeyCipher;
  /** Checked again before every attempt (and DNS resolved). */
  readonly urlPolicy: WebhookUrlPolicy;
  /** Per attempt. Default {@link DEFAULT_WEBHOOK_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /** Send through this fetch instead of node:http(s) (tests, proxies). */
  readonly fetch?: typeof fetch;
  /** Default: the system resolver. */
  readonly lookup?: WebhookHostLookup;
  /** In [0, 1), for retry jitter. Default Math.random. */
  readonly random?: () => number;
  /** Default: the system clock. */
  readonly now?: () => Date;
}

/** Default time a receiver has to answer one attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/** The sender of the configured settings (the keeper's deliveries). */
export function createWebhookSender(
  settings: Pick<
    WebhookSettings,
    'keySecret' | 'allowInsecureUrls' | 'allowPrivateUrls' | 'timeoutMs'
  > &
    Partial<Pick<WebhookSettings, 'allowedPorts'>>,
): WebhookSender {
  return {
    cipher: createHmacKeyCipher(settings.keySecret),
    urlPolicy: webhookUrlPolicy(settings),
    timeoutMs: settings.timeoutMs,
  };
}

/** Which targets the settings allow (checked at subscription and before every attempt). */
export function webhookUrlPolicy(
  settings: Pick<WebhookSettings, 'allowInsecureUrls' | 'allowPrivateUrls'> &
    Partial<Pick<WebhookSettings, 'allowedPorts'>>,
): WebhookUrlPolicy {
  return {
    allowInsecure: settings.allowInsecureUrls,
    allowPrivate: settings.allowPrivateUrls,
    allowedPorts: settings.allowedPorts ?? [],
  };
}
