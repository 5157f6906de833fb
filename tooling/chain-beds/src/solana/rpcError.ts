/** A JSON-RPC error a method answers with (code, message and optional data, as nodes send them). */
export class SolanaRpcError extends Error {
  override readonly name = 'SolanaRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC 2.0 and Solana RPC error codes the bed uses. */
export const RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Solana: preflight simulation failed. */
  simulationFailed: -32002,
  /** Solana: a signature did not verify. */
  signatureVerificationFailure: -32003,
  /** Solana: a v0 transaction asked for without `maxSupportedTransactionVersion`. */
  unsupportedTransactionVersion: -32015,
} as const;

/** An invalid-params error ("Invalid param: …"). */
export function invalidParams(message: string): SolanaRpcError {
  return new SolanaRpcError(RPC_ERROR.invalidParams, `Invalid param: ${message}`);
}
