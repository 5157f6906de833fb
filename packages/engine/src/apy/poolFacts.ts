import type { PoolFacts } from '@yieldrouter/schemas';
import type { PoolEntry } from './poolsResponse';

const oneOf = <T extends string>(value: unknown, allowed: readonly T[]): T | null =>
  allowed.find((entry) => entry === value) ?? null;

const booleanOrNull = (value: unknown): boolean | null =>
  typeof value === 'boolean' ? value : null;

/** Strings of a token list (addresses, mints, coin types); anything else is left out. */
const tokenList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter(
        (entry): entry is string =>
          typeof entry === 'string' && entry.length > 0 && entry.length <= 256,
      )
    : [];

/**
 * The risk signals and tokens of a `/pools` entry. Each field stands alone: a missing or
 * malformed one is null (or an empty list), never a default, and never spoils the APY.
 */
export function readPoolFacts(entry: PoolEntry): PoolFacts {
  const predictions = entry['predictions'];
  const predictedClass =
    typeof predictions === 'object' && predictions !== null && 'predictedClass' in predictions
      ? predictions.predictedClass
      : null;
  return {
    outlier: booleanOrNull(entry['outlier']),
    exposure: oneOf(entry['exposure'], ['single', 'multi'] as const),
    ilRisk: oneOf(entry['ilRisk'], ['no', 'yes'] as const),
    predictedClass:
      typeof predictedClass === 'string' && predictedClass.length > 0 && predictedClass.length <= 64
        ? predictedClass
        : null,
    stablecoin: booleanOrNull(entry['stablecoin']),
    underlyingTokens: tokenList(entry['underlyingTokens']),
    rewardTokens: tokenList(entry['rewardTokens']),
  };
}
