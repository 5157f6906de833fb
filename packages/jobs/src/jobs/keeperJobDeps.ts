import type { Logger } from 'pino';
import type { Books } from '@yieldrouter/ledger';
import type {
  ApyReader,
  BridgeRail,
  BridgesConfig,
  ChainAdapters,
  ServiceConfig,
  VenueConfig,
  WebhookSender,
} from '@yieldrouter/engine';
import type { KeeperObserver } from '@yieldrouter/metrics';
import type { KeeperSettings } from '../settings';

/** What job processors work with. Processors take it directly, so a bench can call them. */
export interface KeeperJobDeps {
  /** The books (settlements grouped across the watch's concurrent legs: `Books.settlements`). */
  readonly db: Books;
  readonly adapters: ChainAdapters;
  /** Bridge plans' burn legs settle through the rail; unset: such a leg is unavailable. */
  readonly bridgeRail?: BridgeRail;
  /**
   * The rails' attestation windows (the bridge expiry; unset: no bridge is expired) and how often
   * the bridge watch looks at a failed bridge (unset: every pass).
   */
  readonly bridges?: Pick<BridgesConfig, 'attestationWindowMs' | 'failedWatchMs'>;
  readonly venues: VenueConfig;
  /** Each chain's treasury (`SVC_*_TREASURY`): reconciliation compares its skim receipts. */
  readonly treasuries?: ServiceConfig['treasuries'];
  readonly apyReader: ApyReader;
  readonly settlement: KeeperSettings['settlement'];
  readonly reconciliation: KeeperSettings['reconciliation'];
  readonly webhooks: KeeperSettings['webhooks'] & {
    /** Opens sealed keys and checks targets: the same settings as the API that sealed them. */
    readonly sender: WebhookSender;
  };
  readonly logger: Logger;
  /** Where runs, lags and settlements are reported (the process's metrics); none in benches. */
  readonly observer?: KeeperObserver;
  readonly now: () => Date;
}
