import { readAutoYield } from '@yieldrouter/ledger';
import type { Database, PrismaClient } from '@yieldrouter/ledger';
import {
  decideAutopilotNow,
  previewAutopilot,
  tickAutopilot,
} from './autopilot/autopilotDecisions';
import { readAutopilotHistory } from './autopilot/autopilotHistory';
import { disableAutopilot, enableAutopilot, readAutopilotState } from './autopilot/autopilotPolicy';
import { getAutoPay, setAutoPay } from './autoPay/autoPayConfig';
import { quoteAutoPay } from './autoPay/quoteAutoPay';
import { runAutoPay } from './autoPay/runAutoPay';
import type { ChainAdapters } from './chains/chainsConfig';
import { getGuardrails, setGuardrails } from './guardrails/guardrailsDocument';
import { executePlanLeg } from './plans/executePlanLeg';
import { planOfAlias } from './plans/planOfAlias';
import { prepareStrategyPlan } from './plans/prepareStrategyPlan';
import { readPlan } from './plans/readPlan';
import { confirmBridgeDelivery } from './bridges/confirmBridgeDelivery';
import { prepareBridgePlan } from './bridges/prepareBridgePlan';
import { rescueBridge } from './bridges/rescueBridge';
import { prepareEvmSwapPlan } from './swaps/prepareEvmSwapPlan';
import { prepareSolanaSwapPlan } from './swaps/prepareSolanaSwapPlan';
import { prepareSuiSwapPlan } from './swaps/prepareSuiSwapPlan';
import { prepareGasSponsorPlan } from './swaps/prepareGasSponsorPlan';
import { listOpportunities } from './venues/listOpportunities';
import { readOpportunityApyHistory } from './venues/opportunityApyHistory';
import { refreshApy } from './venues/refreshApy';
import { readAuditTrail } from './wallets/auditTrail';
import { getAutoYield, setAutoYield } from './wallets/autoYield';
import { harvestWallet } from './wallets/harvest';
import { prepareExit } from './wallets/prepareExit';
import { prepareRebalance } from './wallets/prepareRebalance';
import type { PrepareRebalanceRequest, RebalanceDeps } from './wallets/prepareRebalance';
import { prepareRoute } from './wallets/prepareRoute';
import { previewRoute } from './wallets/previewRoute';
import { buildPublicActivity, buildPublicPortfolio } from './wallets/publicDocuments';
import { readPositions } from './wallets/readPositions';
import { cancelPlan } from './wallets/releaseLegs';
import type { CancelPlanParameters } from './wallets/releaseLegs';
import { settleLeg } from './wallets/settleLeg';
import type { SettleLegParameters } from './wallets/settleLeg';
import { readWalletPerformance } from './wallets/walletPerformance';
import { createWebhook } from './webhooks/createWebhook';
import { deleteWebhook } from './webhooks/deleteWebhook';
import { listWebhookEvents } from './webhooks/listWebhookEvents';
import { listWebhooks } from './webhooks/listWebhooks';
import { rotateWebhook } from './webhooks/rotateWebhook';

/** Where the time spent in use cases that write the books is reported (the API's metrics). */
export interface LedgerWriteObserver {
  ledgerWrite(operation: string, seconds: number, ok: boolean): void;
}

/**
 * The use cases the API's handlers call, on one set of books: each is the engine function with
 * the books bound, so a handler never holds the database (nor imports the ledger) itself. With
 * an observer, each use case that writes the books reports its duration and outcome.
 */
export function createUseCases(books: Database, observer?: LedgerWriteObserver) {
  const db = books.prisma;
  const { settlements } = books;
  /** A writing use case, timed when there is an observer. */
  const timed = <A extends unknown[], R>(operation: string, use: (...args: A) => Promise<R>) => {
    if (!observer) return use;
    return async (...args: A): Promise<R> => {
      const started = performance.now();
      let ok = false;
      try {
        const result = await use(...args);
        ok = true;
        return result;
      } finally {
        observer.ledgerWrite(operation, (performance.now() - started) / 1000, ok);
      }
    };
  };
  /** An engine function taking `{ db, … }`, with the books' client bound. */
  const onBooks =
    <P extends { readonly db: unknown }, R>(use: (parameters: P) => R) =>
    (parameters: Omit<P, 'db'>): R =>
      use({ ...parameters, db } as unknown as P);
  /**
   * `onBooks` for a use case that stores the plan it prepares on its own: the books' grouped plan
   * writes bound too (a prepared statement; concurrent plans share one statement).
   */
  const onPlanBooks =
    <P extends { readonly db: unknown; readonly plans?: unknown }, R>(use: (parameters: P) => R) =>
    (parameters: Omit<P, 'db' | 'plans'>): R =>
      use({ ...parameters, db, plans: books.plans } as unknown as P);
  /** An engine function taking the client first, with it bound. */
  const booksFirst =
    <A extends unknown[], R>(use: (client: PrismaClient, ...args: A) => R) =>
    (...args: A): R =>
      use(db, ...args);

  return {
    /** Whether the books answer a trivial query (health). */
    booksReachable: async (): Promise<boolean> => {
      try {
        await db.$queryRaw`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    wallets: {
      /** The wallet's stored auto-yield setting (by ledger key), or null. */
      autoYieldSetting: booksFirst(readAutoYield),
      prepareRoute: timed('prepareRoute', onBooks(prepareRoute)),
      prepareExit: timed('prepareExit', onBooks(prepareExit)),
      prepareRebalance: timed(
        'prepareRebalance',
        (deps: Omit<RebalanceDeps, 'db'>, request: PrepareRebalanceRequest) =>
          prepareRebalance({ ...deps, db }, request),
      ),
      previewRoute: onBooks(previewRoute),
      settleLeg: timed('settleLeg', (parameters: Omit<SettleLegParameters, 'db' | 'settlements'>) =>
        settleLeg({ ...parameters, db, settlements }),
      ),
      harvestWallet: timed('harvestWallet', onBooks(harvestWallet)),
      // Position reads share queries across concurrent requests: they are the API's hottest reads.
      readPositions: (adapters: ChainAdapters, addresses: readonly string[], now: Date) =>
        readPositions(books.balances, adapters, addresses, now),
      publicPortfolio: booksFirst(buildPublicPortfolio),
      publicActivity: booksFirst(buildPublicActivity),
      performance: booksFirst(readWalletPerformance),
      getAutoYield: booksFirst(getAutoYield),
      setAutoYield: timed('setAutoYield', booksFirst(setAutoYield)),
      auditTrail: booksFirst(readAuditTrail),
    },
    autopilot: {
      state: booksFirst(readAutopilotState),
      history: booksFirst(readAutopilotHistory),
      enable: timed('enableAutopilot', onBooks(enableAutopilot)),
      disable: timed('disableAutopilot', onBooks(disableAutopilot)),
      preview: onBooks(previewAutopilot),
      decide: onBooks(decideAutopilotNow),
      tick: timed('tickAutopilot', onBooks(tickAutopilot)),
    },
    guardrails: {
      getGuardrails: booksFirst(getGuardrails),
      setGuardrails: timed('setGuardrails', booksFirst(setGuardrails)),
    },
    autoPay: {
      getAutoPay: booksFirst(getAutoPay),
      setAutoPay: timed('setAutoPay', booksFirst(setAutoPay)),
      runAutoPay: timed('runAutoPay', onBooks(runAutoPay)),
      quoteAutoPay: booksFirst(quoteAutoPay),
    },
    plans: {
      readPlan: booksFirst(readPlan),
      cancelPlan: timed(
        'cancelPlan',
        (parameters: Omit<CancelPlanParameters, 'db' | 'settlements'>) =>
          cancelPlan({ ...parameters, db, settlements }),
      ),
      executePlanLeg: timed('executePlanLeg', onBooks(executePlanLeg)),
      planOfAlias: onBooks(planOfAlias),
      prepareEvmSwapPlan: timed('prepareEvmSwapPlan', onPlanBooks(prepareEvmSwapPlan)),
      prepareSolanaSwapPlan: timed('prepareSolanaSwapPlan', onPlanBooks(prepareSolanaSwapPlan)),
      prepareSuiSwapPlan: timed('prepareSuiSwapPlan', onPlanBooks(prepareSuiSwapPlan)),
      prepareGasSponsorPlan: timed('prepareGasSponsorPlan', onPlanBooks(prepareGasSponsorPlan)),
      prepareBridgePlan: timed('prepareBridgePlan', onPlanBooks(prepareBridgePlan)),
      confirmBridgeDelivery: timed('confirmBridgeDelivery', onBooks(confirmBridgeDelivery)),
      rescueBridge: onBooks(rescueBridge),
    },
    venues: {
      listOpportunities: onBooks(listOpportunities),
      readApyHistory: onBooks(readOpportunityApyHistory),
      refreshApy: onBooks(refreshApy),
      prepareStrategyPlan: timed('prepareStrategyPlan', onPlanBooks(prepareStrategyPlan)),
    },
    webhooks: {
      createWebhook: timed('createWebhook', onBooks(createWebhook)),
      listWebhooks: booksFirst(listWebhooks),
      rotateWebhook: timed('rotateWebhook', onBooks(rotateWebhook)),
      deleteWebhook: timed('deleteWebhook', onBooks(deleteWebhook)),
      listWebhookEvents: booksFirst(listWebhookEvents),
    },
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
export type WalletUseCases = UseCases['wallets'];
export type GuardrailUseCases = UseCases['guardrails'];
export type PlanUseCases = UseCases['plans'];
export type VenueUseCases = UseCases['venues'];
export type WebhookUseCases = UseCases['webhooks'];
export type AutopilotUseCases = UseCases['autopilot'];
export type AutoPayUseCases = UseCases['autoPay'];
