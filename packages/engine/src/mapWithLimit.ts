/**
 * `work` over `items`, at most `limit` at a time; the results in the order of `items`. A
 * rejection rejects the whole (the others still run to their end): callers that must not lose
 * one item to another's failure catch inside `work`.
 *
 * @example
 * const readings = await mapWithLimit(positions, 16, (position) => readPosition(position));
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(limit, 1), items.length) }, worker));
  return results;
}
