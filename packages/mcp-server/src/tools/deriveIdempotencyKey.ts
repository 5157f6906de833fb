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

export interface ToolCallIdentity {
  /** Who calls (a hash of the API key, or the key id): two callers never share a key. */
  readonly scope: string;
  readonly operationId: string;
  readonly args: unknown;
}

/** One tool call's identity as a digest: the same caller, tool and arguments, the same digest. */
export function toolCallDigest(call: ToolCallIdentity): string {
  return createHash('sha256')
    .update([call.scope, call.operationId, canonicalJson(call.args)].join('\n'))
    .digest('hex');
}

export interface DeriveIdempotencyKeyParameters extends ToolCallIdentity {
  /**
   * Unique to this server's first sighting of the call (see IdempotencyWindow): a retry inside
   * the window reuses it, and the same call made afresh (after the window, or after a refusal
   * that wrote nothing) gets another, so it writes instead of replaying an old answer.
   */
  readonly sighting: string;
}

/**
 * The Idempotency-Key of one tool call: a model that retries a call (same tool, same
 * arguments, within the window of the first) sends the same key, so the API writes once and
 * replays the answer.
 */
export function deriveIdempotencyKey(parameters: DeriveIdempotencyKeyParameters): string {
  const digest = createHash('sha256')
    .update(`${toolCallDigest(parameters)}\n${parameters.sighting}`)
    .digest('hex');
  return `mcp-${digest.slice(0, 48)}`;
}
