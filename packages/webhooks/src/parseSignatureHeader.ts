export type SignatureHeaderProblem =
  'missing_timestamp' | 'invalid_timestamp' | 'missing_signature' | 'invalid_signature';

export type ParseSignatureHeaderReturnType =
  | { readonly ok: true; readonly timestamp: number; readonly signatures: string[] }
  | { readonly ok: false; readonly reason: SignatureHeaderProblem };

// Canonical digits only: `t=0170…` would otherwise verify as a different header string.
const TIMESTAMP = /^(0|[1-9]\d{0,14})$/;
const HMAC_SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Reads an `X-SVC-Signature` value: `t=<unix seconds>` once and at least one
 * `v1=<64 hex>`. Whitespace around parts is tolerated, unknown schemes (`v0=`, …) are
 * ignored, hex is lowercased. Returns a typed failure instead of throwing.
 *
 * @example
 * parseSignatureHeader('t=1767225600, v1=5f0c…, v0=legacy');
 * // { ok: true, timestamp: 1767225600, signatures: ['5f0c…'] }
 * parseSignatureHeader('v1=5f0c…'); // { ok: false, reason: 'missing_timestamp' }
 */
export function parseSignatureHeader(
  header: string | null | undefined,
): ParseSignatureHeaderReturnType {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of (header ?? '').split(',')) {
    const separator = part.indexOf('=');
    if (separator === -1) continue;
    const scheme = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (scheme === 't') {
      // A second `t` would make the signed timestamp ambiguous.
      if (timestamp !== undefined || !TIMESTAMP.test(value)) {
        return { ok: false, reason: 'invalid_timestamp' };
      }
      timestamp = Number(value);
    } else if (scheme === 'v1') {
      const signature = value.toLowerCase();
      if (!HMAC_SHA256_HEX.test(signature)) return { ok: false, reason: 'invalid_signature' };
      signatures.push(signature);
    }
  }
  if (timestamp === undefined) return { ok: false, reason: 'missing_timestamp' };
  if (signatures.length === 0) return { ok: false, reason: 'missing_signature' };
  return { ok: true, timestamp, signatures };
}
