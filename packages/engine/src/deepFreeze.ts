/**
 * Freezes a document and everything in it. The API serializes a frozen response body once and
 * reuses the bytes, so only freeze what never changes.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
