import { GuardrailsDocument, GuardrailsUpdate } from '../guardrail';
import { WalletParams } from '../params';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok } from './routeParts';

/** A wallet's guardrails: the owner sets them, its agents read them. */
export const guardrailRoutes = {
  getGuardrails: defineRoute({
    operationId: 'getGuardrails',
    method: 'get',
    path: '/wallets/{address}/guardrails',
    versioned: true,
    auth: OWNER_AGENT,
    walletParam: 'address',
    summary: "Read the wallet's guardrails (no limit until the owner sets one).",
    tags: ['wallets'],
    request: { params: WalletParams },
    responses: ok(GuardrailsDocument),
  }),
  setGuardrails: defineRoute({
    operationId: 'setGuardrails',
    method: 'put',
    path: '/wallets/{address}/guardrails',
    versioned: true,
    auth: OWNER,
    walletParam: 'address',
    audited: true,
    summary: "Replace the wallet's guardrails (owner only; a field left out has no limit).",
    description: [
      'Route with stake, deposit plans naming the wallet as owner, rebalance and the autopilot',
      'check them before preparing a plan; one they stop comes back `blocked` with `guardrail_*`',
      'blockers. Exits are never stopped (`ownerExitAlways`). An unknown opportunity is 404',
      '`strategy_unknown`; nothing is stored.',
    ].join('\n'),
    tags: ['wallets'],
    request: { params: WalletParams, body: GuardrailsUpdate, headers: ['Idempotency-Key'] },
    responses: ok(GuardrailsDocument),
  }),
} as const;
