// The baselines' transport: one bare `fetch` per JSON-RPC call, no client library.
import { BenchCheckError } from './checks';

let nextId = 1;

/**
 * POSTs one JSON-RPC 2.0 request and returns its `result`; throws on an HTTP or JSON-RPC error
 * (the bench then fails).
 *
 * @example
 * const wei = await rawJsonRpc(rpcUrl, 'eth_getBalance', [owner, 'latest']);
 */
export async function rawJsonRpc(
  rpcUrl: string,
  method: string,
  params: readonly unknown[],
): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as { result?: unknown; error?: unknown };
  if (!response.ok || body.error !== undefined || body.result === undefined) {
    throw new BenchCheckError(`${method}: HTTP ${response.status} ${JSON.stringify(body)}`);
  }
  return body.result;
}
