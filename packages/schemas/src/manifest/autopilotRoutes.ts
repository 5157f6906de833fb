import type { z } from 'zod';
import {
  AutopilotDecision,
  AutopilotEmptyRequest,
  AutopilotEnableRequest,
  AutopilotHistory,
  AutopilotHistoryQuery,
  AutopilotPreviewRequest,
  AutopilotState,
  AutopilotTickResult,
} from '../autopilot';
import { WalletParams } from '../params';
import { defineRoute } from './defineRoute';
import { OWNER, OWNER_AGENT, ok } from './routeParts';

const OWNER_AGENT_KEEPER = ['owner', 'agent', 'keeper'] as const;

const RULE =
  'The rule (featured strategy svc-autopilot-top-30d-monthly): rank the ready opportunities on ' +
  "the policy's chain by 30-day mean APY (apyMean30dBps; a mean with too few samples is null and " +
  'never ranks; an opportunity outside the allowlist or failing the guardrails never wins) and ' +
  "switch from the incumbent (the wallet's largest staked position on that chain) only when the " +
  'challenger beats it by at least rebalanceMinDeltaBps (700 = 7 percentage points: +6.99 pp ' +
  'holds, +7.00 pp switches). Within one chain only: never a bridge. A wallet with nothing ' +
  'staked on the chain holds (no_position): the autopilot moves staked money, it never deposits.';

/** Autopilot (within one chain): state and history, enable, disable, preview, tick, decide. */
export function autopilotRoutes() {
  const path = <const P extends string>(suffix: P) =>
    `/wallets/{address}/autopilot${suffix}` as const;
  const write = <
    const Id extends string,
    const P extends string,
    const A extends Roles,
    const B extends z.ZodObject,
    const S extends z.ZodType,
  >(
    operationId: Id,
    suffix: P,
    auth: A,
    body: B,
    response: S,
    summary: string,
    description: string,
  ) =>
    defineRoute({
      operationId,
      method: 'post',
      path: path(suffix),
      versioned: true,
      auth,
      walletParam: 'address',
      summary,
      description,
      tags: ['autopilot'],
      request: { params: WalletParams, body },
      responses: ok(response),
    });
  const policyWrite = <
    const Id extends string,
    const P extends string,
    const B extends z.ZodObject,
  >(
    operationId: Id,
    suffix: P,
    body: B,
    summary: string,
    description: string,
  ) =>
    defineRoute({
      operationId,
      method: 'post',
      path: path(suffix),
      versioned: true,
      auth: OWNER,
      walletParam: 'address',
      audited: true,
      summary,
      description,
      tags: ['autopilot'],
      request: { params: WalletParams, body, headers: ['Idempotency-Key'] },
      responses: ok(AutopilotState),
    });
  return {
    getAutopilot: defineRoute({
      operationId: 'getAutopilot',
      method: 'get',
      path: path(''),
      versioned: true,
      auth: OWNER_AGENT,
      walletParam: 'address',
      summary: 'Autopilot state: policy, incumbent, next tick, last decision.',
      description: `${RULE} The policy is null until the owner enables the autopilot.`,
      tags: ['autopilot'],
      request: { params: WalletParams },
      responses: ok(AutopilotState),
    }),
    getAutopilotHistory: defineRoute({
      operationId: 'getAutopilotHistory',
      method: 'get',
      path: path('/history'),
      versioned: true,
      auth: OWNER_AGENT,
      walletParam: 'address',
      summary: 'Autopilot decisions, newest first (ticks, previews and decides).',
      description:
        'Every decision record: its inputs (each candidate with its 30-day mean, samples, ' +
        'readiness, allowlist and guardrail verdicts), the incumbent, the threshold, the ' +
        'outcome with its reason code and the plan id a tick prepared. `limit` per page (50 by ' +
        'default); `nextCursor` continues, null on the last page.',
      tags: ['autopilot'],
      request: { params: WalletParams, query: AutopilotHistoryQuery },
      responses: ok(AutopilotHistory),
    }),
    enableAutopilot: policyWrite(
      'enableAutopilot',
      '/enable',
      AutopilotEnableRequest,
      'Enable autopilot (owner): store the policy and switch it on.',
      'Fields left out keep the stored policy, or the defaults (rebalanceMinDeltaBps 700, ' +
        'cadence monthly, venueAllowlist [] = every ready opportunity, goal max_apy_30d). ' +
        'chain is sui or solana (a Map chain is 400 naming body.chain); every allowlisted id ' +
        'must be an opportunity on that chain. The first tick is due at once. Audited; an ' +
        'Idempotency-Key replays the first answer.',
    ),
    disableAutopilot: policyWrite(
      'disableAutopilot',
      '/disable',
      AutopilotEmptyRequest,
      'Disable autopilot (owner): positions stay where they are.',
      'Stops the ticks and keeps the policy; nothing is withdrawn and no plan is cancelled. ' +
        'Audited; an Idempotency-Key replays the first answer.',
    ),
    previewAutopilot: write(
      'previewAutopilot',
      '/preview',
      OWNER_AGENT,
      AutopilotPreviewRequest,
      AutopilotDecision,
      'Preview a decision under the policy with these fields replaced (moves nothing).',
      `${RULE} The decision is recorded (kind preview); no plan is prepared.`,
    ),
    tickAutopilot: write(
      'tickAutopilot',
      '/tick',
      OWNER_AGENT_KEEPER,
      AutopilotEmptyRequest,
      AutopilotTickResult,
      "Run this period's tick: decide and, on a switch, prepare the rebalance plan.",
      `${RULE} One tick per wallet per cadence period: a second tick in the period (however ` +
        'many run at once) answers the stored decision with replayed: true and prepares no ' +
        'other plan. On a switch the rebalance plan (withdraw leg, deposit leg) is prepared ' +
        'for the owner to sign; nothing moves until then. 409 AUTOPILOT_DISABLED while off.',
    ),
    decideAutopilot: write(
      'decideAutopilot',
      '/decide',
      OWNER_AGENT,
      AutopilotEmptyRequest,
      AutopilotDecision,
      'Decide under the stored policy now (moves nothing, prepares nothing).',
      `${RULE} The decision is recorded (kind decide). 409 AUTOPILOT_NOT_CONFIGURED without a ` +
        'policy.',
    ),
  } as const;
}

type Roles = typeof OWNER_AGENT | typeof OWNER_AGENT_KEEPER;
