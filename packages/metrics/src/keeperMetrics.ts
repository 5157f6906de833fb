import { Counter, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { KeeperObserver } from './observers';

/** Seconds: a sub-second relay round to a reconciliation of many wallets. */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds from submission to settlement: one block to the give-up window. */
const SETTLEMENT_BUCKETS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** Webhook delivery outcomes, as the `webhook-delivery` job counts them. */
const DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;

/** The keeper's job metrics (in the keeper process, or in the API with the in-process keeper). */
export function createKeeperMetrics(registry: Registry): KeeperObserver {
  const runs = new Counter({
    name: 'svc_keeper_job_runs_total',
    help: 'Job runs finished in this process, per job and outcome (ok or failed).',
    labelNames: ['job', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'svc_keeper_job_duration_seconds',
    help: 'Duration of job runs in this process, per job.',
    labelNames: ['job'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const lag = new Histogram({
    name: 'svc_keeper_job_lag_seconds',
    help: 'Time a job waited in its queue (from when it was due) before a worker took it.',
    labelNames: ['job'],
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const deliveries = new Counter({
    name: 'svc_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retrying, failed for good).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const settlement = new Histogram({
    name: 'svc_settlement_latency_seconds',
    help: 'Time from a leg’s submission to its settlement (confirmed or failed), per chain.',
    labelNames: ['chain', 'outcome'],
    buckets: SETTLEMENT_BUCKETS,
    registers: [registry],
  });
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  return {
    jobRun(job, ok, seconds, counts) {
      runs.inc({ job, outcome: ok ? 'ok' : 'failed' });
      duration.observe({ job }, seconds);
      if (job !== 'webhook-delivery') return;
      for (const outcome of DELIVERY_OUTCOMES) {
        const count = counts[outcome] ?? 0;
        if (count > 0) deliveries.inc({ outcome }, count);
      }
    },
    jobLag(job, seconds) {
      lag.observe({ job }, Math.max(0, seconds));
    },
    settlement(chain, outcome, seconds) {
      settlement.observe({ chain, outcome }, Math.max(0, seconds));
    },
  };
}
