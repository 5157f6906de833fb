import cors from 'cors';
import type { RequestHandler } from 'express';

/** What a browser page of an allowed origin may send and read. */
const ALLOWED_HEADERS = [
  'Content-Type',
  'X-API-Key',
  'Idempotency-Key',
  'X-Request-Id',
  'If-None-Match',
  'X-SVC-API-Client-Version',
];
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'API-Version',
  'X-SVC-API-Version',
  'X-SVC-API-Latest',
  'X-SVC-API-Min',
  'X-SVC-API-Warning',
  'ETag',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Idempotent-Replayed',
];

/**
 * CORS for owner dashboards: only the origins in SVC_CORS_ORIGINS (exact `scheme://host[:port]`)
 * get Access-Control-Allow-Origin, on simple requests and on preflights (204, cached 10 minutes).
 * No credentials (keys travel in X-API-Key, never in cookies). Any other origin gets no CORS
 * headers, so its browser refuses to read the answer; with no origins set, CORS is off.
 */
export function corsPolicy(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
}
