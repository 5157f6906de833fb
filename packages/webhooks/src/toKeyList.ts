/** One key or a rotation list; no key or an empty key is a programmer error. */
export function toKeyList(key: string | readonly string[]): readonly string[] {
  const keys = typeof key === 'string' ? [key] : key;
  if (keys.length === 0 || keys.some((entry) => !entry)) {
    throw new TypeError('webhooks: at least one non-empty hmacKey is required');
  }
  return keys;
}
