import type {
  AutopilotUseCases,
  ChainAdapters,
  OpportunitySnapshots,
  VenueConfig,
} from '@yieldrouter/engine';
import type { Chain } from '@yieldrouter/schemas';
import type { Handlers } from '../http/mountRoutes';

export interface AutopilotHandlerDeps {
  /** The autopilot use cases, on the books (guardrails and rebalance bound). */
  readonly autopilot: AutopilotUseCases;
  readonly adapters: ChainAdapters;
  readonly venues: VenueConfig;
  readonly snapshots: OpportunitySnapshots;
  /** Each chain's treasury: a switch's withdraw leg pays the skim there (owner-held receipts). */
  readonly treasuries?: Readonly<Partial<Record<Chain, string | null>>> | undefined;
  readonly now?: () => Date;
}

const ok = <T>(body: T) => ({ status: 200, body });

/**
 * The autopilot (within one chain): state and history, the owner's enable and disable (audited,
 * Idempotency-Key), and preview, decide and tick, each recorded as a decision.
 */
export function autopilotHandlers(deps: AutopilotHandlerDeps): Handlers {
  const { adapters, autopilot, venues } = deps;
  const now = deps.now ?? (() => new Date());
  const opportunities = async () => (await deps.snapshots.current()).opportunities;
  const deciding = async (address: string) => ({
    adapters,
    venues,
    address,
    opportunities: await opportunities(),
    treasuries: deps.treasuries,
    now: now(),
  });

  return {
    getAutopilot: async ({ params }) => ok(await autopilot.state(adapters, params.address, now())),
    getAutopilotHistory: async ({ params, query }) =>
      ok(await autopilot.history(adapters, params.address, query)),
    enableAutopilot: async ({ params, body, recordWrite }) =>
      ok(
        await autopilot.enable({
          adapters,
          address: params.address,
          input: body,
          opportunities: await opportunities(),
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      ),
    disableAutopilot: async ({ params, recordWrite }) =>
      ok(
        await autopilot.disable({
          adapters,
          address: params.address,
          opportunities: await opportunities(),
          now: now(),
          recordWrite: recordWrite(ok),
        }),
      ),
    previewAutopilot: async ({ params, body }) =>
      ok(await autopilot.preview({ ...(await deciding(params.address)), input: body })),
    decideAutopilot: async ({ params }) =>
      ok(await autopilot.decide(await deciding(params.address))),
    tickAutopilot: async ({ params }) => ok(await autopilot.tick(await deciding(params.address))),
  };
}
