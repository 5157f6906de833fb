import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { HttpObserver, LedgerWriteObserver } from './observers';

/** Seconds: from a cached read (sub-millisecond) to a slow chain read. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * The API's request metrics. Label children are looked up once per (route, method, status)
 * and kept: a request costs one Map lookup and one bucket increment.
 */
export function createHttpMetrics(registry: Registry): HttpObserver {
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request duration by route template (manifest path), method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const replays = new Counter({
    name: 'svc_idempotency_replays_total',
    help: 'Writes answered from their Idempotency-Key record (not run again), per operation.',
    labelNames: ['operation'],
    registers: [registry],
  });
  const refused = new Counter({
    name: 'svc_rate_limited_total',
    help: 'Requests refused with 429 by the rate limiter (scope public: per address; keyed: per key).',
    labelNames: ['scope'],
    registers: [registry],
  });
  const children = new Map<string, Histogram.Internal<'route' | 'method' | 'status'>>();
  return {
    request(route, method, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (child === undefined) {
        child = duration.labels({ route, method, status: String(status) });
        children.set(key, child);
      }
      child.observe(seconds);
    },
    idempotencyReplay(operation) {
      replays.inc({ operation });
    },
    rateLimited(scope) {
      refused.inc({ scope });
    },
  };
}

/** Time in the use cases that write the books (one per process: the API and its keeper share it). */
export function createLedgerMetrics(registry: Registry): LedgerWriteObserver {
  const writes = new Histogram({
    name: 'svc_ledger_write_duration_seconds',
    help: 'Time in use cases that write the books, per operation and outcome.',
    labelNames: ['operation', 'outcome'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    ledgerWrite(operation, seconds, ok) {
      writes.observe({ operation, outcome: ok ? 'ok' : 'error' }, seconds);
    },
  };
}
