import { Connection } from '@solana/web3.js';
import { fetchWithTimeout } from '@yieldrouter/schemas';
import { sameRealmFetch } from './sameRealmFetch';

/** A web3.js connection, or why there is none. */
export type SolanaConnectionResult =
  | { readonly status: 'ok'; readonly connection: Connection }
  | { readonly status: 'not_configured'; readonly detail: string };

/**
 * The one `Connection` an adapter uses: commitment `confirmed`, no retry on 429, and a fetch
 * that gives up after `timeoutMs` (web3.js has no timeout of its own and hangs on a silent
 * server). Nothing here opens a socket or a websocket; the adapter never calls
 * `confirmTransaction` (which would).
 *
 * @example
 * const result = createSolanaConnection('http://127.0.0.1:8899', 5000);
 */
export function createSolanaConnection(
  rpcUrl: string | undefined,
  timeoutMs: number,
): SolanaConnectionResult {
  if (!rpcUrl) return { status: 'not_configured', detail: 'no Solana RPC is configured' };
  try {
    const connection = new Connection(rpcUrl, {
      commitment: 'confirmed',
      fetch: sameRealmFetch(fetchWithTimeout(timeoutMs)),
      disableRetryOnRateLimit: true,
    });
    return { status: 'ok', connection };
  } catch {
    return { status: 'not_configured', detail: 'the Solana RPC URL is not an http(s) URL' };
  }
}
