import type { z } from 'zod';
import { ConfigError } from './configError';

export interface ReadSettingsOptions {
  /**
   * Which variables this process must recognise: a variable for which `inScope` is true and
   * that the schema does not declare is refused as unknown.
   */
  readonly inScope: (name: string) => boolean;
}

/**
 * Parses process settings with a zod object: an empty variable means unset, an unknown setting
 * in scope or an invalid value throws `ConfigError` with a one-line message naming it.
 */
export function readSettings<S extends z.ZodObject>(
  schema: S,
  rawSource: Readonly<Record<string, string | undefined>>,
  options: ReadSettingsOptions,
): z.infer<S> {
  // Shells and .env files write `NAME=` for "nothing".
  const source = Object.fromEntries(
    Object.entries(rawSource).filter(([, value]) => value !== undefined && value !== ''),
  );
  const known = new Set(Object.keys(schema.shape));
  const unknown = Object.keys(source).filter((name) => options.inScope(name) && !known.has(name));
  if (unknown.length > 0) throw new ConfigError(`unknown setting(s): ${unknown.join(', ')}`);
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`invalid setting ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}
