import { rpcFailure } from '@yieldrouter/schemas';
import type { Unavailable } from '@yieldrouter/schemas';

const URL_PATTERN = /\b(?:https?|wss?):\/\/\S+/gi;

interface ErrorLike {
  readonly name: string;
  readonly message: string;
  readonly cause?: unknown;
  readonly shortMessage?: unknown;
  readonly details?: unknown;
  readonly code?: unknown;
}

/** Duck-typed: errors from Node's fetch come from another realm under jest (instanceof fails). */
function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** Every error in the `cause` chain, outermost first (viem wraps: HttpRequestError → cause…). */
function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (isErrorLike(current) && chain.length < 16 && !chain.includes(current)) {
    chain.push(current);
    current = current.cause;
  }
  return chain;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Classifies a failed read. viem's `message` carries the RPC URL (which can hold an API key) and
 * the request body, so the detail is rebuilt from `shortMessage`, `details` and the socket error
 * code, with any URL removed.
 * - a TimeoutError / AbortError anywhere in the chain → `rpc_timeout`;
 * - a body that is not JSON (SyntaxError) or a result of the wrong shape → `rpc_bad_response`;
 * - anything else (connection refused, HTTP error, a JSON-RPC error from the node) → `rpc_error`.
 *
 * @example
 * try { await rpc.getBalance(address) } catch (error) { return toUnavailable(error, 'ETH balance') }
 */
export function toUnavailable(error: unknown, what: string): Unavailable {
  const chain = causeChain(error);
  const timeout = chain.find((link) => link.name === 'TimeoutError' || link.name === 'AbortError');
  if (timeout) {
    // rpcFailure checks `instanceof Error`, which misses errors from another realm (jest).
    return rpcFailure(Object.assign(new Error(timeout.message), { name: timeout.name }), what);
  }
  if (chain.some((link) => link.name === 'SyntaxError' || link.name === 'RpcBadResponseError')) {
    return {
      status: 'unavailable',
      reason: 'rpc_bad_response',
      detail: `${what}: the RPC answered with something unreadable`,
    };
  }
  const outer = chain[0];
  const head = outer ? (text(outer.shortMessage) ?? outer.message.split('\n')[0]) : String(error);
  const details = text(outer?.details);
  const code = chain.map((link) => link.code).find((value) => typeof value === 'string');
  const parts = [head, details, code].filter(
    (part, index, all) => part && all.indexOf(part) === index,
  );
  return {
    status: 'unavailable',
    reason: 'rpc_error',
    detail: `${what}: ${parts.join(' — ')}`.replace(URL_PATTERN, '[rpc]').slice(0, 240),
  };
}
