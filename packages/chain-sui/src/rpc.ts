import { JsonRpcError, JsonRpcHTTPTransport, SuiJsonRpcClient } from '@mysten/sui/jsonRpc';
import type { Unavailable } from '@yieldrouter/schemas';
import { fetchWithTimeout, rpcFailure } from '@yieldrouter/schemas';
import type { ResolvedSuiConfig } from './config';
import { SuiBadResponseError } from './errors';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `SuiJsonRpcClient` trusts whatever JSON comes back. This fetch reads the body first (inside
 * the timeout) and refuses anything that is not a JSON-RPC envelope, so garbage surfaces as
 * `SuiBadResponseError` instead of a TypeError deep in the SDK.
 */
export function envelopeCheckingFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SuiBadResponseError('the RPC answered with something that is not JSON');
    }
    const error = isRecord(body) ? body.error : undefined;
    const envelope =
      isRecord(body) &&
      ('result' in body ||
        (isRecord(error) && typeof error.code === 'number' && typeof error.message === 'string'));
    if (!envelope) throw new SuiBadResponseError('the RPC answer is not a JSON-RPC response');
    return new Response(text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The JSON-RPC client, or undefined when no RPC URL is configured. */
export function createSuiClient(config: ResolvedSuiConfig): SuiJsonRpcClient | undefined {
  if (config.rpcUrl === undefined) return undefined;
  const transport = new JsonRpcHTTPTransport({
    url: config.rpcUrl,
    fetch: envelopeCheckingFetch(fetchWithTimeout(config.timeoutMs)),
  });
  return new SuiJsonRpcClient({ network: config.network, transport });
}

/** `unavailable` for a read that has no RPC to go to. */
export function rpcNotConfigured(what: string): Unavailable {
  return {
    status: 'unavailable',
    reason: 'rpc_not_configured',
    detail: `${what}: no Sui RPC URL is configured`,
  };
}

/** `unavailable` for a read of USDC when no USDC coin type is configured. */
export function usdcNotConfigured(what: string): Unavailable {
  return {
    status: 'unavailable',
    reason: 'asset_not_configured',
    detail: `${what}: the USDC coin type is not configured`,
  };
}

/** Classifies a failed call: timeouts, unreadable answers, and everything else as rpc_error. */
export function suiRpcFailure(error: unknown, what: string): Unavailable {
  if (error instanceof SuiBadResponseError) {
    return {
      status: 'unavailable',
      reason: 'rpc_bad_response',
      detail: `${what}: ${error.message}`,
    };
  }
  return rpcFailure(error, what);
}

/** True when a JSON-RPC error says the transaction digest is unknown to the node. */
export function isTransactionNotFound(error: unknown, digest: string): boolean {
  if (!(error instanceof JsonRpcError) || error.code !== -32602) return false;
  return (
    error.message === `Could not find the referenced transaction [TransactionDigest(${digest})].` ||
    error.message === `Invalid Params: Transaction ${digest} not found`
  );
}
