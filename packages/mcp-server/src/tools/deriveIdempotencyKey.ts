import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal arguments give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface DeriveIdempotencyKeyParameters {
  /** Who calls (a hash of the API key, or the key id): two callers never share a key. */
  readonly scope: string;
  readonly operationId: string;
  readonly args: unknown;
  readonly now: number;
  /** A retry inside one window (aligned to the epoch) reuses the key. */
  readonly windowMs: number;
}

/**
 * The Idempotency-Key of one tool call: a model that retries a call (same tool, same
 * arguments, soon after) sends the same key, so the API writes once and replays the answer.
 */
export function deriveIdempotencyKey(parameters: DeriveIdempotencyKeyParameters): string {
  const window = Math.floor(parameters.now / parameters.windowMs);
  const digest = createHash('sha256')
    .update(
      [
        parameters.scope,
        parameters.operationId,
        String(window),
        canonicalJson(parameters.args),
      ].join('\n'),
    )
    .digest('hex');
  return `mcp-${digest.slice(0, 48)}`;
}
