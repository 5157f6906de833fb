/** The RPC answered, but not with what the method promises (no JSON-RPC result, wrong shape). */
export class RpcBadResponseError extends Error {
  override readonly name = 'RpcBadResponseError';
}
