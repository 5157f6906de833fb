import { z } from 'zod';

/** `true`/`1` or `false`/`0`; unset is false. */
export const BooleanSetting = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** An optional http(s) URL. */
export const HttpUrlSetting = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, { error: 'must be an http(s) URL' })
  .optional();
