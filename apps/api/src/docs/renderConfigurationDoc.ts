import type { z } from 'zod';
import { SERVICE_SETTING_DESCRIPTIONS, ServiceSettings } from '@yieldrouter/engine';
import type { SettingDescription } from '@yieldrouter/engine';
import { KEEPER_SETTING_DESCRIPTIONS, KeeperSettingsSchema } from '@yieldrouter/jobs';
import { API_SETTING_DESCRIPTIONS } from '../apiSettingDescriptions';
import { EnvSchema } from '../env';

/** The command that rewrites `docs/configuration.md` (named by the staleness test). */
export const CONFIGURATION_DOC_COMMAND = 'npx -y pnpm@10 docs:config';

interface SettingsGroup {
  readonly heading: string;
  readonly intro: string;
  readonly names: readonly string[];
  readonly descriptions: Readonly<Record<string, SettingDescription>>;
  readonly describedIn: string;
}

type SchemaNode = z.core.$ZodType;

const HOUR_MS = 3_600_000;

/** A duration in words for a millisecond default of a minute or more: `(30 min)`, `(7 d)`. */
function inWords(ms: number): string {
  if (ms % (24 * HOUR_MS) === 0) return `${ms / (24 * HOUR_MS)} d`;
  if (ms % HOUR_MS === 0) return `${ms / HOUR_MS} h`;
  return `${ms / 60_000} min`;
}

/** What a variable is when it is not set, read off its schema. */
function schemaDefault(name: string, node: SchemaNode): string {
  const def = node._zod.def;
  if (def.type === 'default') {
    const raw: unknown = (def as z.core.$ZodDefaultDef).defaultValue;
    if (raw === '') return 'unset';
    const text =
      typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'bigint'
        ? String(raw)
        : JSON.stringify(raw);
    const words =
      name.endsWith('_MS') && typeof raw === 'number' && raw >= 60_000 && raw % 60_000 === 0
        ? ` (${inWords(raw)})`
        : '';
    return `\`${text}\`${words}`;
  }
  if (def.type === 'pipe') {
    const { in: input, out } = def as z.core.$ZodPipeDef;
    // A boolean switch: an optional enum transformed to true/false, false when unset.
    if (out._zod.def.type === 'transform' && input._zod.def.type === 'optional') return '`false`';
    return schemaDefault(name, input);
  }
  return 'unset';
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function renderGroup(group: SettingsGroup, shape: Readonly<Record<string, SchemaNode>>): string {
  const missing = group.names.filter((name) => !group.descriptions[name]);
  if (missing.length > 0) {
    throw new Error(`no description for ${missing.join(', ')}: add it to ${group.describedIn}`);
  }
  const rows = group.names.map((name) => {
    const description = group.descriptions[name] as SettingDescription;
    const node = shape[name] as SchemaNode;
    const fallback = description.default ?? schemaDefault(name, node);
    return `| \`${name}\` | ${cell(fallback)} | ${cell(description.meaning)} |`;
  });
  return [
    `## ${group.heading}`,
    '',
    group.intro,
    '',
    '| Variable | Default | Meaning |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/**
 * `docs/configuration.md`, from the settings schemas and their descriptions (before prettier:
 * the writer and the staleness test format it the same way). `apiSettings` is the API's whole
 * schema (the shared, its own and the keeper's settings).
 */
export function renderConfigurationDoc(apiSettings: z.ZodObject = EnvSchema): string {
  const shared = Object.keys(ServiceSettings.shape);
  const keeper = Object.keys(KeeperSettingsSchema.shape);
  const apiOwn = Object.keys(apiSettings.shape).filter(
    (name) => !shared.includes(name) && !keeper.includes(name),
  );
  const shape: Readonly<Record<string, SchemaNode>> = apiSettings.shape;
  const groups: SettingsGroup[] = [
    {
      heading: 'Shared settings (API and keeper)',
      intro:
        'Database, Redis, logs, chains, on-chain ids, venues, APY, webhooks, swap sources and bridges: parsed the same way by both processes (`packages/engine/src/config/serviceSettings.ts` and the schemas it extends).',
      names: shared,
      descriptions: SERVICE_SETTING_DESCRIPTIONS,
      describedIn: 'packages/engine/src/config/serviceSettingDescriptions.ts',
    },
    {
      heading: "The API's own settings",
      intro: 'Read by the API only (`apps/api/src/env.ts`).',
      names: apiOwn,
      descriptions: API_SETTING_DESCRIPTIONS,
      describedIn: 'apps/api/src/apiSettingDescriptions.ts',
    },
    {
      heading: 'Keeper settings',
      intro:
        'Read by the keeper, and by the API for the keeper routes and the in-process keeper (`packages/jobs/src/settings.ts`). Job cadences: see [keeper.md](keeper.md).',
      names: keeper,
      descriptions: KEEPER_SETTING_DESCRIPTIONS,
      describedIn: 'packages/jobs/src/keeperSettingDescriptions.ts',
    },
  ];
  return [
    '# Configuration',
    '',
    `<!-- Generated from the settings schemas and their descriptions by \`${CONFIGURATION_DOC_COMMAND}\`; do not edit by hand. -->`,
    '',
    "Every setting is validated with zod at start: an unknown `SVC_*` variable or an invalid value stops the service with a one-line message. The settings both processes share (database, Redis, logs, chains, venues, APY) are parsed by one module (`packages/engine/src/config`); each app adds its own (`apps/api/src/env.ts`; the keeper's `packages/jobs/src/env.ts` and `settings.ts`). The keeper process refuses unknown `SVC_KEEPER_*` names and leaves the API's own `SVC_*` settings to the API. An empty variable (`NAME=`) counts as unset.",
    '',
    'On-chain ids are never invented: an id that is not configured is served as `null` with a reason by `GET /api/v1/svc/packages`, and plans that need it come back `blocked`.',
    '',
    ...groups.flatMap((group) => [renderGroup(group, shape), '']),
  ].join('\n');
}
