import { rpcFailure } from '@yieldrouter/schemas';
import type { Unavailable } from '@yieldrouter/schemas';

/** An RPC answer that parsed but does not hold what Solana would send (wrong owner, short data). */
export class SolanaBadResponseError extends Error {
  override readonly name = 'SolanaBadResponseError';
}

/**
 * Classifies a failed web3.js call: timeouts and aborts → `rpc_timeout`; unparseable or
 * mis-shaped answers (JSON `SyntaxError`, superstruct `StructError`, our own checks) →
 * `rpc_bad_response`; anything else (refused connection, HTTP 5xx, JSON-RPC error) → `rpc_error`.
 *
 * @example
 * try { … } catch (error) { return describeRpcFailure(error, 'SOL balance'); }
 */
export function describeRpcFailure(error: unknown, what: string): Unavailable {
  if (error instanceof SolanaBadResponseError) {
    return {
      status: 'unavailable',
      reason: 'rpc_bad_response',
      detail: `${what}: ${error.message}`,
    };
  }
  return rpcFailure(error, what);
}

/** An `rpc_not_configured` read. */
export function rpcNotConfigured(
  what: string,
  detail = 'no Solana RPC is configured',
): Unavailable {
  return { status: 'unavailable', reason: 'rpc_not_configured', detail: `${what}: ${detail}` };
}
