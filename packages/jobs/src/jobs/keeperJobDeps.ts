import type { Logger } from 'pino';
import type { LegSettlements, PrismaClient, SqlClient } from '@yieldrouter/ledger';
import type { ApyReader, ChainAdapters, VenueConfig, WebhookSender } from '@yieldrouter/engine';

/** What job processors work with. Processors take it directly, so a bench can call them. */
export interface KeeperJobDeps {
  readonly db: PrismaClient;
  /** The driver for the set-wise statements (harvest batches). */
  readonly sql?: SqlClient;
  /** Settlement reads and writes, grouped across the watch's concurrent legs. */
  readonly settlements: LegSettlements;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly apyReader: ApyReader;
  readonly settlement: {
    /** Legs read per page. */
    readonly pageSize: number;
    /** Legs of a page settled at once. */
    readonly concurrency: number;
    /** A leg the chain still reports pending this long after submission expires. */
    readonly giveUpAfterMs: number;
    /** An expired or cancelled leg's transaction is watched this long for a late landing. */
    readonly releasedWatchMs: number;
    /** A leg left unsigned this long after its plan was prepared expires. */
    readonly unsignedTtlMs: number;
  };
  readonly reconciliation: {
    /** A drift at or above this many micros raises `reconciliation.drift`. */
    readonly thresholdMicros: bigint;
  };
  readonly webhooks: {
    /** Opens sealed keys and checks targets: the same settings as the API that sealed them. */
    readonly sender: WebhookSender;
    readonly batchSize: number;
    readonly perSubscription: number;
    readonly runBudgetMs: number;
  };
  readonly logger: Logger;
  readonly now: () => Date;
}
