import { readAutoYield } from '@yieldrouter/ledger';
import type { Books } from '@yieldrouter/ledger';
import { decideAutopilotNow, previewAutopilot } from './autopilot/autopilotDecisions';
import { tickAutopilot } from './autopilot/tickAutopilot';
import { readAutopilotHistory } from './autopilot/autopilotHistory';
import { disableAutopilot, enableAutopilot, readAutopilotState } from './autopilot/autopilotPolicy';
import { getAutoPay, setAutoPay } from './autoPay/autoPayConfig';
import { quoteAutoPay } from './autoPay/quoteAutoPay';
import { runAutoPay } from './autoPay/runAutoPay';
import type { ChainAdapters } from './chains/chainsConfig';
import { getGuardrails, setGuardrails } from './guardrail/guardrailsDocument';
import { executePlanLeg } from './plan/executePlanLeg';
import { planOfAlias } from './plan/planOfAlias';
import { prepareStrategyPlan } from './plan/prepareStrategyPlan';
import { readPlan } from './plan/readPlan';
import { confirmBridgeDelivery } from './bridge/confirmBridgeDelivery';
import { prepareBridgePlan } from './bridge/prepareBridgePlan';
import { rescueBridge } from './bridge/rescueBridge';
import { prepareEvmSwapPlan } from './swap/prepareEvmSwapPlan';
import { prepareSolanaSwapPlan } from './swap/prepareSolanaSwapPlan';
import { prepareSuiSwapPlan } from './swap/prepareSuiSwapPlan';
import { prepareGasSponsorPlan } from './swap/prepareGasSponsorPlan';
import { listOpportunities } from './venues/listOpportunities';
import { readOpportunityApyHistory } from './venues/opportunityApyHistory';
import { refreshApy } from './venues/refreshApy';
import { readAuditTrail } from './wallet/auditTrail';
import { getAutoYield, setAutoYield } from './wallet/autoYield';
import { harvestWallet } from './wallet/harvest';
import { prepareExit } from './wallet/prepareExit';
import { prepareRebalance } from './wallet/prepareRebalance';
import type { PrepareRebalanceRequest, RebalanceDeps } from './wallet/prepareRebalance';
import { prepareRoute } from './wallet/prepareRoute';
import { previewRoute } from './wallet/previewRoute';
import { buildPublicActivity, buildPublicPortfolio } from './wallet/publicDocuments';
import { readPositions } from './wallet/readPositions';
import { cancelPlan } from './wallet/releaseLegs';
import { settleLeg } from './wallet/settleLeg';
import { readWalletPerformance } from './wallet/walletPerformance';
import { createWebhook } from './webhook/createWebhook';
import { deleteWebhook } from './webhook/deleteWebhook';
import { listWebhookEvents } from './webhook/listWebhookEvents';
import { listWebhooks } from './webhook/listWebhooks';
import { rotateWebhook } from './webhook/rotateWebhook';

/** A use case's parameters but the books, which `createUseCases` binds. */
type Request<UseCase extends (parameters: never) => unknown> = Omit<Parameters<UseCase>[0], 'db'>;

/** Where the time spent in use cases that write the books is reported (the API's metrics). */
export interface LedgerWriteObserver {
  ledgerWrite(operation: string, seconds: number, ok: boolean): void;
}

/**
 * The use cases the API's handlers call, on one set of books: each is the engine function with
 * the books bound, so a handler never holds the database (nor imports the ledger) itself. With
 * an observer, each use case that writes the books reports its duration and outcome.
 */
export function createUseCases(books: Books, observer?: LedgerWriteObserver) {
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
  /** An engine function taking the books first, with them bound. */
  const booksFirst =
    <A extends unknown[], R>(use: (client: Books, ...args: A) => R) =>
    (...args: A): R =>
      use(books, ...args);

  return {
    /** Whether the books answer a trivial query (health). */
    booksReachable: async (): Promise<boolean> => {
      try {
        await books.$queryRaw`SELECT 1`;
        return true;
      } catch {
        return false;
      }
    },
    wallet: {
      /** The wallet's stored auto-yield setting (by ledger key), or null. */
      autoYieldSetting: booksFirst(readAutoYield),
      prepareRoute: timed('prepareRoute', (request: Request<typeof prepareRoute>) =>
        prepareRoute({ ...request, db: books }),
      ),
      prepareExit: timed('prepareExit', (request: Request<typeof prepareExit>) =>
        prepareExit({ ...request, db: books }),
      ),
      prepareRebalance: timed(
        'prepareRebalance',
        (deps: Omit<RebalanceDeps, 'db'>, request: PrepareRebalanceRequest) =>
          prepareRebalance({ ...deps, db: books }, request),
      ),
      previewRoute: (request: Request<typeof previewRoute>) =>
        previewRoute({ ...request, db: books }),
      settleLeg: timed('settleLeg', (request: Request<typeof settleLeg>) =>
        settleLeg({ ...request, db: books }),
      ),
      harvestWallet: timed('harvestWallet', (request: Request<typeof harvestWallet>) =>
        harvestWallet({ ...request, db: books }),
      ),
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
      enable: timed('enableAutopilot', (request: Request<typeof enableAutopilot>) =>
        enableAutopilot({ ...request, db: books }),
      ),
      disable: timed('disableAutopilot', (request: Request<typeof disableAutopilot>) =>
        disableAutopilot({ ...request, db: books }),
      ),
      preview: (request: Request<typeof previewAutopilot>) =>
        previewAutopilot({ ...request, db: books }),
      decide: (request: Request<typeof decideAutopilotNow>) =>
        decideAutopilotNow({ ...request, db: books }),
      tick: timed('tickAutopilot', (request: Request<typeof tickAutopilot>) =>
        tickAutopilot({ ...request, db: books }),
      ),
    },
    guardrail: {
      getGuardrails: booksFirst(getGuardrails),
      setGuardrails: timed('setGuardrails', booksFirst(setGuardrails)),
    },
    autoPay: {
      getAutoPay: booksFirst(getAutoPay),
      setAutoPay: timed('setAutoPay', booksFirst(setAutoPay)),
      runAutoPay: timed('runAutoPay', (request: Request<typeof runAutoPay>) =>
        runAutoPay({ ...request, db: books }),
      ),
      quoteAutoPay: booksFirst(quoteAutoPay),
    },
    plan: {
      readPlan: booksFirst(readPlan),
      cancelPlan: timed('cancelPlan', (request: Request<typeof cancelPlan>) =>
        cancelPlan({ ...request, db: books }),
      ),
      executePlanLeg: timed('executePlanLeg', (request: Request<typeof executePlanLeg>) =>
        executePlanLeg({ ...request, db: books }),
      ),
      planOfAlias: (request: Request<typeof planOfAlias>) => planOfAlias({ ...request, db: books }),
    },
    swap: {
      prepareEvmSwapPlan: timed(
        'prepareEvmSwapPlan',
        (request: Request<typeof prepareEvmSwapPlan>) =>
          prepareEvmSwapPlan({ ...request, db: books }),
      ),
      prepareSolanaSwapPlan: timed(
        'prepareSolanaSwapPlan',
        (request: Request<typeof prepareSolanaSwapPlan>) =>
          prepareSolanaSwapPlan({ ...request, db: books }),
      ),
      prepareSuiSwapPlan: timed(
        'prepareSuiSwapPlan',
        (request: Request<typeof prepareSuiSwapPlan>) =>
          prepareSuiSwapPlan({ ...request, db: books }),
      ),
      prepareGasSponsorPlan: timed(
        'prepareGasSponsorPlan',
        (request: Request<typeof prepareGasSponsorPlan>) =>
          prepareGasSponsorPlan({ ...request, db: books }),
      ),
    },
    bridge: {
      prepareBridgePlan: timed('prepareBridgePlan', (request: Request<typeof prepareBridgePlan>) =>
        prepareBridgePlan({ ...request, db: books }),
      ),
      confirmBridgeDelivery: timed(
        'confirmBridgeDelivery',
        (request: Request<typeof confirmBridgeDelivery>) =>
          confirmBridgeDelivery({ ...request, db: books }),
      ),
      rescueBridge: (request: Request<typeof rescueBridge>) =>
        rescueBridge({ ...request, db: books }),
    },
    venues: {
      listOpportunities: (request: Request<typeof listOpportunities>) =>
        listOpportunities({ ...request, db: books }),
      readApyHistory: (request: Request<typeof readOpportunityApyHistory>) =>
        readOpportunityApyHistory({ ...request, db: books }),
      refreshApy: (request: Request<typeof refreshApy>) => refreshApy({ ...request, db: books }),
      prepareStrategyPlan: timed(
        'prepareStrategyPlan',
        (request: Request<typeof prepareStrategyPlan>) =>
          prepareStrategyPlan({ ...request, db: books }),
      ),
    },
    webhook: {
      createWebhook: timed('createWebhook', (request: Request<typeof createWebhook>) =>
        createWebhook({ ...request, db: books }),
      ),
      listWebhooks: booksFirst(listWebhooks),
      rotateWebhook: timed('rotateWebhook', (request: Request<typeof rotateWebhook>) =>
        rotateWebhook({ ...request, db: books }),
      ),
      deleteWebhook: timed('deleteWebhook', (request: Request<typeof deleteWebhook>) =>
        deleteWebhook({ ...request, db: books }),
      ),
      listWebhookEvents: booksFirst(listWebhookEvents),
    },
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
export type WalletUseCases = UseCases['wallet'];
export type GuardrailUseCases = UseCases['guardrail'];
export type PlanUseCases = UseCases['plan'];
export type SwapUseCases = UseCases['swap'];
export type BridgeUseCases = UseCases['bridge'];
export type VenueUseCases = UseCases['venues'];
export type WebhookUseCases = UseCases['webhook'];
export type AutopilotUseCases = UseCases['autopilot'];
export type AutoPayUseCases = UseCases['autoPay'];
