/** A JSON-RPC error a handler raises; the server sends it as `{ error: { code, message } }`. */
export class RpcMethodError extends Error {
  override readonly name = 'RpcMethodError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** -32602: the params do not fit the method (Sui's `InvalidParams`). */
export function invalidParams(detail: string): RpcMethodError {
  return new RpcMethodError(-32602, `Invalid params: ${detail}`);
}

/** -32002: Sui refused the transaction before execution (bad signature, stale or unknown input). */
export function transactionInputError(errors: readonly string[]): RpcMethodError {
  return new RpcMethodError(
    -32002,
    'Transaction execution failed due to issues with transaction inputs, please review the ' +
      `errors and try again:\n${errors.map((error) => `- ${error}`).join('\n')}`,
  );
}
