import type { ChainAdapters, GuardrailUseCases, OpportunitySnapshots } from '@yieldrouter/engine';
import type { Handlers } from '../http/mountRoutes';

export interface GuardrailHandlerDeps {
  readonly guardrail: GuardrailUseCases;
  readonly adapters: ChainAdapters;
  readonly snapshots: OpportunitySnapshots;
  readonly now?: () => Date;
}

const ok = <T>(body: T) => ({ status: 200, body });

/** A wallet's guardrails: read by its owner and agents, replaced by its owner. */
export function guardrailHandlers(deps: GuardrailHandlerDeps): Handlers {
  const { adapters, guardrail } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    getGuardrails: async ({ params }) =>
      ok(await guardrail.getGuardrails(adapters, params.address)),
    setGuardrails: async ({ params, body, recordWrite }) =>
      ok(
        await guardrail.setGuardrails(
          adapters,
          params.address,
          body,
          (await deps.snapshots.current()).opportunities,
          now(),
          recordWrite(ok),
        ),
      ),
  };
}
