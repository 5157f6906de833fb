// Knobs of the fault suite, read once from the environment.

export const SCENARIO_KEYS = [
  'api-crash',
  'redis-restart',
  'database-drops',
  'sigterm',
  'keeper-crash',
  'webhook-receivers',
  'horizontal-scale',
] as const;
export type ScenarioKey = (typeof SCENARIO_KEYS)[number];

export interface FaultsSettings {
  /** FAULTS_ONLY: a comma-separated list of scenarios (default: all). */
  readonly only: readonly ScenarioKey[];
  /** FAULTS_REDIS_SERVER: the redis-server binary (default: `redis-server` on the PATH). */
  readonly redisServer: string;
}

const isScenarioKey = (value: string): value is ScenarioKey =>
  (SCENARIO_KEYS as readonly string[]).includes(value);

export function faultsSettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): FaultsSettings {
  const raw = env['FAULTS_ONLY']?.trim();
  const names = raw ? raw.split(',').map((name) => name.trim()) : [...SCENARIO_KEYS];
  const unknown = names.filter((name) => !isScenarioKey(name));
  if (unknown.length > 0) {
    throw new Error(
      `FAULTS_ONLY: unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIO_KEYS.join(', ')}`,
    );
  }
  return {
    only: names.filter(isScenarioKey),
    redisServer: env['FAULTS_REDIS_SERVER'] || 'redis-server',
  };
}
