import { z } from 'zod';
import { ConfigError } from './configError';
import { BooleanSetting, commaListSetting } from './settingTypes';

/** The secret development falls back to; production refuses to start without a real one. */
export const DEVELOPMENT_SECRET = 'development-only-api-key-secret-change-me';

/** Webhook settings, read the same way by the API (subscriptions) and the keeper (deliveries). */
export const WebhookSettingsSchema = z.object({
  /** Hashes API keys (the API); the webhook key secret falls back to it. */
  SVC_API_KEY_SECRET: z.string().min(32).optional(),
  SVC_WEBHOOK_KEY_SECRET: z.string().min(32).optional(),
  SVC_WEBHOOK_ALLOW_PRIVATE_URLS: BooleanSetting,
  SVC_WEBHOOK_ALLOWED_PORTS: commaListSetting(
    z
      .string()
      .regex(/^\d{1,5}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(65_535)),
  ),
  SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS: z.coerce.number().int().min(0).max(604_800).default(86_400),
  SVC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1000).max(30_000).default(10_000),
});

export interface WebhookSettings {
  /**
   * Seals subscription signing keys at rest: SVC_WEBHOOK_KEY_SECRET, else SVC_API_KEY_SECRET
   * (the cipher derives its own key from it). The API and the keeper must see the same one.
   */
  readonly keySecret: string;
  /** http: targets (development and test only). */
  readonly allowInsecureUrls: boolean;
  /** Private, loopback and local targets (SVC_WEBHOOK_ALLOW_PRIVATE_URLS; never in production). */
  readonly allowPrivateUrls: boolean;
  /** Ports public targets may use besides 443 and 80 (SVC_WEBHOOK_ALLOWED_PORTS). */
  readonly allowedPorts: readonly number[];
  /** How long a rotated-out key keeps signing next to the new one. */
  readonly rotationOverlapMs: number;
  /** How long a receiver has to answer one delivery attempt. */
  readonly timeoutMs: number;
}

export function parseWebhookSettings(
  env: z.infer<typeof WebhookSettingsSchema> & {
    readonly NODE_ENV: 'development' | 'test' | 'production';
  },
): WebhookSettings {
  const production = env.NODE_ENV === 'production';
  if (production && env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS) {
    throw new ConfigError(
      'SVC_WEBHOOK_ALLOW_PRIVATE_URLS is for development and tests; it cannot be on in production',
    );
  }
  const secret = env.SVC_WEBHOOK_KEY_SECRET ?? env.SVC_API_KEY_SECRET;
  if (production && !secret) {
    throw new ConfigError(
      'SVC_WEBHOOK_KEY_SECRET or SVC_API_KEY_SECRET (at least 32 characters) is required in production',
    );
  }
  return {
    keySecret: secret ?? DEVELOPMENT_SECRET,
    allowInsecureUrls: !production,
    allowPrivateUrls: env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS,
    allowedPorts: env.SVC_WEBHOOK_ALLOWED_PORTS,
    rotationOverlapMs: env.SVC_WEBHOOK_ROTATION_OVERLAP_SECONDS * 1000,
    timeoutMs: env.SVC_WEBHOOK_TIMEOUT_MS,
  };
}
