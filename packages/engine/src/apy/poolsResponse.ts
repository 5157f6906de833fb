/** A `data[]` entry of DefiLlama's `/pools` response, checked only for being an object with an id. */
export type PoolEntry = Readonly<Record<string, unknown>> & { readonly pool: string };

/** Either the pools by id (duplicated ids map to `'duplicate'`), or why the body is unusable. */
export type PoolsIndex =
  | { readonly ok: true; readonly pools: ReadonlyMap<string, PoolEntry | 'duplicate'> }
  | { readonly ok: false; readonly detail: string };

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the envelope of a `/pools` body (`{ status: 'success', data: [{ pool: string, … }] }`)
 * and indexes pools by id. Per-pool numbers are checked later, only for pools that are asked for.
 */
export function indexPoolsResponse(text: string): PoolsIndex {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'response is not JSON' };
  }
  if (!isRecord(body)) return { ok: false, detail: 'response is not a JSON object' };
  if (body['status'] !== 'success')
    return { ok: false, detail: 'response status is not "success"' };
  const data = body['data'];
  if (!Array.isArray(data)) return { ok: false, detail: 'response has no data array' };
  const pools = new Map<string, PoolEntry | 'duplicate'>();
  for (const [index, entry] of data.entries()) {
    if (!isRecord(entry) || typeof entry['pool'] !== 'string') {
      return { ok: false, detail: `data[${index}] is not a pool with a string id` };
    }
    const id = entry['pool'];
    pools.set(id, pools.has(id) ? 'duplicate' : (entry as PoolEntry));
  }
  return { ok: true, pools };
}
