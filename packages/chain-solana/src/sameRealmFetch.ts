/**
 * Wraps a fetch so that everything web3.js's RPC client sees is ordinary: the body is read
 * inside (so the timeout covers it), and a failure is rethrown as an `Error` of this realm with
 * its `name` kept (`TimeoutError`, `AbortError`, `TypeError`) and the socket error code in the
 * message. web3.js only settles a request when the failure is `instanceof Error`; an error from
 * another realm (Node's fetch seen from a jest or vm sandbox) would leave the call hanging.
 *
 * @example
 * new Connection(url, { fetch: sameRealmFetch(fetchWithTimeout(5000)) });
 */
export function sameRealmFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      const response = await base(input, init);
      const body = await response.text();
      const empty = response.status === 204 || response.status === 205 || response.status === 304;
      return new Response(empty ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      throw toLocalError(error);
    }
  };
}

function toLocalError(error: unknown): Error {
  if (typeof error !== 'object' || error === null) return new Error(String(error));
  const { name, message, cause } = error as { name?: unknown; message?: unknown; cause?: unknown };
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const local = new Error(`${String(message ?? 'fetch failed')}${code ? ` (${code})` : ''}`, {
    cause: error,
  });
  if (typeof name === 'string') local.name = name;
  return local;
}
