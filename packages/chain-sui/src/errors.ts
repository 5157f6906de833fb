/** The RPC answered, but not with a JSON-RPC envelope or not with the shape we read. */
export class SuiBadResponseError extends Error {
  override readonly name = 'SuiBadResponseError';
}
