import type { SettingDescription } from '@yieldrouter/engine';
import { JOB_NAMES, cadenceSettingName } from './jobs/jobCatalog';

/** The meaning of each fixed `SVC_KEEPER_*` setting (`KeeperSettingsSchema`). */
const FIXED: Readonly<Record<string, SettingDescription>> = {
  SVC_KEEPER_PREFIX: {
    meaning: "Redis key prefix of the keeper's queues and state (heartbeat, last runs).",
  },
  SVC_KEEPER_HEALTH_HOST: {
    meaning: 'Where the keeper process serves `GET /health` and `GET /metrics`.',
  },
  SVC_KEEPER_HEALTH_PORT: {
    meaning:
      "The keeper process's `GET /health` and `GET /metrics` port (`0`: any free port, logged).",
  },
  SVC_KEEPER_HEARTBEAT_MS: {
    meaning:
      'Heartbeat interval; a keeper is alive while its heartbeat is younger than three intervals.',
  },
  SVC_KEEPER_LOCK_MS: {
    meaning:
      'Job lock: a job whose worker died (SIGKILL, crash) goes back to its queue after this long and runs again.',
  },
  SVC_KEEPER_SETTLEMENT_GIVE_UP_MS: {
    meaning:
      'A leg the chain still reports pending this long after its transaction was submitted expires: its reservation goes back; a late landing still settles it.',
  },
  SVC_KEEPER_UNSIGNED_TTL_MS: {
    meaning:
      'A leg still unsigned this long after its plan was prepared expires (job `leg-expiry`): its reservation goes back.',
  },
  SVC_KEEPER_RELEASED_WATCH_MS: {
    meaning:
      "How long the settlement watch keeps reading an expired or cancelled leg's transaction for a late landing.",
  },
  SVC_KEEPER_RECONCILE_THRESHOLD_MICROS: {
    meaning:
      'A reconciliation drift at or above this size raises `reconciliation.drift` (and counts in `svc_reconciliation_above_threshold`).',
  },
  SVC_KEEPER_SETTLEMENT_PAGE_SIZE: { meaning: 'Legs read per page by the settlement watch.' },
  SVC_KEEPER_SETTLEMENT_CONCURRENCY: {
    meaning:
      'Legs of a page the settlement watch settles at once (1–64): their receipts are read in parallel and their ledger writes share statements.',
  },
  SVC_KEEPER_WEBHOOK_BATCH_SIZE: { meaning: 'Webhook delivery: deliveries claimed per round.' },
  SVC_KEEPER_WEBHOOK_PER_SUBSCRIPTION: {
    meaning: 'Webhook delivery: deliveries sent in a row per subscription (in order).',
  },
  SVC_KEEPER_WEBHOOK_RUN_BUDGET_MS: {
    meaning: 'Webhook delivery: how long one run goes on while deliveries are due.',
  },
};

/**
 * The meaning of every `SVC_KEEPER_*` setting: the fixed ones, and one cadence per catalog job
 * (`SVC_KEEPER_<JOB>_EVERY_MS`, its default the job's own cadence).
 */
export const KEEPER_SETTING_DESCRIPTIONS: Readonly<Record<string, SettingDescription>> = {
  ...FIXED,
  ...Object.fromEntries(
    JOB_NAMES.map((name) => [
      cadenceSettingName(name),
      {
        meaning: `Cadence of the \`${name}\` job's scheduler (see [keeper.md](keeper.md)); \`0\` removes the schedule. 100 ms … 24 h.`,
      },
    ]),
  ),
};
