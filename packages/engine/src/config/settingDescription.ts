import type { z } from 'zod';

/**
 * What a setting means, for people: `docs/configuration.md` is generated from these (`pnpm
 * docs:config`). `default` replaces the schema's default where that says less than words do (a
 * fallback to another setting, a secret, a built-in list) or the schema has none.
 */
export interface SettingDescription {
  readonly meaning: string;
  readonly default?: string;
}

/** One description for every variable of a settings schema: a new variable without one fails typecheck. */
export type SettingDescriptions<S extends z.ZodObject> = {
  readonly [Name in keyof S['shape']]: SettingDescription;
};
