const encoder = new TextEncoder();

/**
 * Lowercase hex HMAC-SHA256 of `${timestamp}.` followed by the body, under each key (its UTF-8
 * bytes). A byte body is signed as it is: never decoded and re-encoded.
 */
export async function computeSignatures(
  keys: readonly string[],
  timestamp: number,
  rawBody: string | Uint8Array,
): Promise<string[]> {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix);
  payload.set(body, prefix.length);
  const { subtle } = globalThis.crypto;
  return Promise.all(
    keys.map(async (key) => {
      const algorithm = { name: 'HMAC', hash: 'SHA-256' };
      const hmacKey = await subtle.importKey('raw', encoder.encode(key), algorithm, false, [
        'sign',
      ]);
      const mac = new Uint8Array(await subtle.sign(algorithm, hmacKey, payload));
      return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
    }),
  );
}
