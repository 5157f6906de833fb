import { AuditTrailDocument } from '../auditTrail';
import { AutoPayPlanDocument, AutoPayRunRequest } from '../autoPay';
import { AutopilotDecision } from '../autopilot';
import { DepositPlanDocument } from '../bridge';
import {
  AuditsQuery,
  AutoPayPayeesDocument,
  AutoPayPayeesInput,
  AutopilotDecisionParams,
  AutoYieldMoveRequest,
  SolanaStakePlanRequest,
  WalletPageQuery,
} from '../peerDocuments';
import { PlanDocument } from '../planDocuments';
import { OpenDocument, WalletParams } from '../params';
import type { RouteAuth } from './defineRoute';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok, plan } from './routeParts';

/** A wallet route of `address` (the key must be scoped to it). */
const walletRoute = <const P extends string, const A extends RouteAuth>(path: P, auth: A) =>
  ({
    path: `/wallets/{address}${path}` as const,
    versioned: true,
    auth,
    walletParam: 'address',
  }) as const;

/**
 * Wallet routes that peer (v1) clients call (issue 41), each a view of or an alias over a use
 * case the service already has: auto-pay payees and preview, auto-yield stake and unstake, one
 * autopilot decision, the Solana stake plan, and the wallet page and audits as query aliases.
 */
export const peerWalletRoutes = {
  getAutoPayPayees: defineRoute({
    operationId: 'getAutoPayPayees',
    method: 'get',
    ...walletRoute('/auto-pay/payees', OWNER_AGENT),
    summary: "The auto-pay config's payees (empty until a config is stored).",
    tags: ['wallets'],
    request: { params: WalletParams },
    responses: ok(AutoPayPayeesDocument),
  }),
  setAutoPayPayees: defineRoute({
    operationId: 'setAutoPayPayees',
    method: 'put',
    ...walletRoute('/auto-pay/payees', OWNER),
    audited: true,
    summary: 'Replace the auto-pay payees (owner); the rest of the config is kept.',
    description:
      'The same rules as PUT /wallets/{address}/auto-pay for payees. Without a stored config, ' +
      'one is stored disabled (enabled false, percentage 0, trigger manual): nothing is paid ' +
      'until the owner enables it there.',
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoPayPayeesInput, headers: ['Idempotency-Key'] },
    responses: ok(AutoPayPayeesDocument),
  }),
  previewAutoPay: defineRoute({
    operationId: 'previewAutoPay',
    method: 'post',
    ...walletRoute('/auto-pay/preview', OWNER_AGENT),
    summary: 'What an auto-pay run of this wallet would pay now (nothing stored).',
    description:
      'POST /svc/auto-pay/plan for the wallet in the path. To run it: POST ' +
      '/wallets/{address}/auto-pay (also served at …/auto-pay/trigger).',
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoPayRunRequest },
    responses: ok(AutoPayPlanDocument),
  }),
  stakeAutoYield: defineRoute({
    operationId: 'stakeAutoYield',
    method: 'post',
    ...walletRoute('/auto-yield/stake', OWNER),
    audited: true,
    summary: 'Stake into the auto-yield venue (or `venue`): a plan the owner signs.',
    description:
      'With `venue`: the deposit plan of POST /svc/strategies/deposit/plan for this owner. ' +
      'Without: POST /wallets/{address}/route with `stake: true` (the auto-yield venue, its ' +
      'cap, or the best ready venue on the chain).',
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoYieldMoveRequest, headers: ['Idempotency-Key'] },
    responses: ok(PlanDocument, 'A prepared plan, or a blocked plan with blockers[].'),
  }),
  unstakeAutoYield: defineRoute({
    operationId: 'unstakeAutoYield',
    method: 'post',
    ...walletRoute('/auto-yield/unstake', OWNER),
    audited: true,
    summary: 'Unstake from the auto-yield venue (or `venue`): a withdraw plan the owner signs.',
    description:
      'The withdraw plan of POST /svc/strategies/withdraw/plan for this owner, from `venue` or ' +
      "the wallet's auto-yield venue; with neither, 400 naming body.venue.",
    tags: ['wallets'],
    request: { params: WalletParams, body: AutoYieldMoveRequest, headers: ['Idempotency-Key'] },
    responses: plan,
  }),
  getAutopilotDecision: defineRoute({
    operationId: 'getAutopilotDecision',
    method: 'get',
    path: '/wallets/{address}/autopilot/history/{decisionId}',
    versioned: true,
    auth: OWNER_AGENT,
    walletParam: 'address',
    summary: "One autopilot decision of the wallet's history, by decisionId.",
    description:
      'Another wallet’s decision, or none: 404 AUTOPILOT_DECISION_NOT_FOUND naming path.decisionId.',
    tags: ['autopilot'],
    request: { params: AutopilotDecisionParams },
    responses: ok(AutopilotDecision),
  }),
  prepareSolanaStakePlan: defineRoute({
    operationId: 'prepareSolanaStakePlan',
    method: 'post',
    path: '/svc/solana/stake/plan',
    versioned: true,
    auth: 'public',
    summary: 'Prepare a deposit into a Solana venue (owner signs).',
    description:
      'POST /svc/strategies/deposit/plan for a Solana opportunity; a venue on another chain is ' +
      '400 naming body.venue.',
    tags: ['strategies'],
    request: { body: SolanaStakePlanRequest, headers: ['Idempotency-Key'] },
    responses: ok(DepositPlanDocument, 'A prepared plan, or a blocked plan with blockers[].'),
  }),
  getWalletPage: defineRoute({
    operationId: 'getWalletPage',
    method: 'get',
    path: '/svc/wallet-page',
    versioned: true,
    auth: OWNER_AGENT,
    summary: 'GET /wallets/{address}/portfolio with the wallet in the query.',
    description: 'A wallet outside the key’s scope: 403 WALLET_SCOPE naming query.wallet.',
    tags: ['wallets'],
    request: { query: WalletPageQuery },
    responses: ok(OpenDocument),
  }),
  listAudits: defineRoute({
    operationId: 'listAudits',
    method: 'get',
    path: '/svc/audits',
    versioned: true,
    auth: OWNER_AGENT,
    summary: 'GET /wallets/{address}/audit with the wallet in the query (wallet_address).',
    description: 'A wallet outside the key’s scope: 403 WALLET_SCOPE naming query.wallet_address.',
    tags: ['wallets'],
    request: { query: AuditsQuery },
    responses: ok(AuditTrailDocument),
  }),
} as const;
