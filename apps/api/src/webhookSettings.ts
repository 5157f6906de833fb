import { ConfigError } from './configError';

/** Webhook settings, shared by the API (subscriptions) and the keeper (deliveries). */
export interface WebhookSettings {
  /**
   * Seals subscription signing keys at rest. SVC_WEBHOOK_KEY_SECRET, else the API key secret
   * (the cipher derives its own key from it). The API and the keeper must see the same one.
   */
  readonly keySecret: string;
  /** http: targets (development and test only). */
  readonly allowInsecureUrls: boolean;
  /** Private, loopback and local targets (SVC_WEBHOOK_ALLOW_PRIVATE_URLS; never in production). */
  readonly allowPrivateUrls: boolean;
  /** How long a rotated-out key keeps signing next to the new one. */
  readonly rotationOverlapMs: number;
  /** How long a receiver has to answer one delivery attempt. */
  readonly timeoutMs: number;
}

export function parseWebhookSettings(env: {
  NODE_ENV: 'development' | 'test' | 'production';
  SVC_WEBHOOK_KEY_SECRET?: string | undefined;
  SVC_WEBHOOK_ALLOW_PRIVATE_URLS: boolean;
  SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: number;
  SVC_WEBHOOK_TIMEOUT_MS: number;
  apiKeySecret: string;
}): WebhookSettings {
  const production = env.NODE_ENV === 'production';
  if (production && env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS) {
    throw new ConfigError(
      'SVC_WEBHOOK_ALLOW_PRIVATE_URLS is for development and tests; it cannot be on in production',
    );
  }
  return {
    keySecret: env.SVC_WEBHOOK_KEY_SECRET ?? env.apiKeySecret,
    allowInsecureUrls: !production,
    allowPrivateUrls: env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS,
    rotationOverlapMs: env.SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS * 1000,
    timeoutMs: env.SVC_WEBHOOK_TIMEOUT_MS,
  };
}
