/**
 * Freezes a document and everything in it. Frozen response bodies are serialized once and the
 * text reused (see `serialize` in mountRoutes), so only freeze what never changes.
 */
export function deepFreeze<T>(value: T): Readonly<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
