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

/** A comma-separated list (blanks around items ignored; unset is empty), each item checked by `item`. */
export const commaListSetting = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));
