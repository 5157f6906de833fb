// The console's only client: the public HTTP API, with the key the user pasted (kept in this
// module's memory, never in storage).
let apiKey = '';

export function setApiKey(key) {
  apiKey = key.trim();
}

export function hasApiKey() {
  return apiKey.length > 0;
}

/** GET /api/v1<path>; throws an Error carrying the API's code and message on a non-2xx answer. */
export async function get(path, query = {}) {
  const url = new URL(`/api/v1${path}`, window.location.origin);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  const headers = { accept: 'application/json' };
  if (apiKey) headers['x-api-key'] = apiKey;
  const res = await fetch(url, { headers, cache: 'no-store' });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = new Error(`${res.status} ${body.code ?? ''} ${body.message ?? ''}`.trim());
    error.status = res.status;
    throw error;
  }
  return body;
}
