import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { HttpObserver, LedgerWriteObserver } from './observers';
import { RequestHistogram } from './requestHistogram';

/** Seconds: from a cached read (sub-millisecond) to a slow chain read. */
export const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * The API's request metrics. A request costs one Map lookup and a bucket increment
 * ({@link RequestHistogram}); replays and refusals are rare and use prom-client's counters.
 */
export function createHttpMetrics(registry: Registry): HttpObserver {
  const duration = new RequestHistogram(
    'svc_http_request_duration_seconds',
    'HTTP request duration by route template (manifest path), method and status.',
    ['route', 'method', 'status'],
    LATENCY_BUCKETS,
    registry,
  );
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
  return {
    request(route, method, status, seconds) {
      const key = `${method} ${status} ${route}`;
      if (!duration.observe(key, seconds)) {
        duration.start(key, { route, method, status: String(status) }, seconds);
      }
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
