import {
  readAutopilotDecisions,
  readAutopilotPolicy,
  writeAutopilotPolicy,
} from '@yieldrouter/ledger';
import type { AutopilotPolicyRow, Books, WriteRecorder } from '@yieldrouter/ledger';
import type {
  AutopilotChain,
  AutopilotEnableRequest,
  AutopilotState,
  Opportunity,
} from '@yieldrouter/schemas';
import { AUTOPILOT_DEFAULT_MIN_DELTA_BPS } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import { findOpportunity } from '../venues/listOpportunities';
import { chainOfAddress, ledgerWallet } from '../wallet/walletAddress';
import { autopilotPeriod } from './autopilotPeriod';
import { decisionDocument, policyDocument, readIncumbent } from './autopilotRecords';

/**
 * The allowlist as opportunity ids: each entry (svcop…, bare venue id or form- alias) must name
 * an opportunity on the policy's chain; anything else is refused naming the entry.
 */
export function allowlistOf(
  ids: readonly string[],
  chain: AutopilotChain,
  opportunities: readonly Opportunity[],
): string[] {
  return ids.map((id, index) => {
    const field = `body.venueAllowlist[${index}]`;
    const opportunity = findOpportunity(opportunities, id);
    if (!opportunity) {
      throw new EngineError('strategy_unknown', `${field}: no opportunity ${id}`, field);
    }
    if (opportunity.chain !== chain) {
      throw new EngineError(
        'BAD_REQUEST',
        `${field}: ${id} is on ${opportunity.chain}; the autopilot stays within ${chain}`,
        field,
      );
    }
    return opportunity.opportunityId;
  });
}

/**
 * The chain a request names (`body.chain`), else the stored policy's; required while there is
 * no policy. A wallet that is an address of one chain family cannot hold positions on another.
 */
export function policyChain(
  adapters: ChainAdapters,
  address: string,
  named: AutopilotChain | undefined,
  stored: AutopilotPolicyRow | null,
  /** The body field that named the chain (`targetChain` where a v1 client sent it). */
  field = 'body.chain',
): AutopilotChain {
  const chain = named ?? stored?.chain;
  if (!chain) {
    throw new EngineError(
      'BAD_REQUEST',
      `${field}: required (sui or solana) while the wallet has no autopilot policy`,
      field,
    );
  }
  const family = chainOfAddress(adapters, address);
  if (family !== undefined && adapters[chain].normalizeAddress(address) === undefined) {
    throw new EngineError(
      'BAD_REQUEST',
      `${field}: ${address} is a ${family} address, not a ${chain} one`,
      field,
    );
  }
  return chain;
}

/** GET /wallets/{address}/autopilot: the policy, the incumbent, the next tick, the last decision. */
export async function readAutopilotState(
  db: Books,
  adapters: ChainAdapters,
  address: string,
  now: Date,
): Promise<AutopilotState> {
  const wallet = ledgerWallet(adapters, address);
  const policy = await readAutopilotPolicy(db, wallet);
  return stateOf(db, wallet, policy, now);
}

async function stateOf(
  db: Books,
  wallet: string,
  policy: AutopilotPolicyRow | null,
  now: Date,
): Promise<AutopilotState> {
  const [incumbent, [last]] = policy
    ? await Promise.all([
        readIncumbent(db, wallet, policy.chain),
        readAutopilotDecisions(db, wallet, { limit: 1 }),
      ])
    : [null, await readAutopilotDecisions(db, wallet, { limit: 1 })];
  let nextTick: AutopilotState['nextTick'] = null;
  if (policy?.enabled) {
    // Due now when this period has not been ticked; else at the start of the next one.
    const dueAt = policy.nextTickAt;
    nextTick = {
      period: autopilotPeriod(policy.cadence, dueAt > now ? dueAt : now).key,
      dueAt: dueAt.toISOString(),
    };
  }
  return {
    schemaVersion: 'svc-autopilot.v1',
    wallet,
    policy: policy ? policyDocument(policy) : null,
    incumbent: incumbent
      ? {
          opportunityId: incumbent.opportunityId,
          venueId: incumbent.venueId,
          stakedMicros: incumbent.stakedMicros.toString(),
        }
      : null,
    nextTick,
    lastDecision: last ? decisionDocument(last) : null,
  };
}

export interface SetAutopilotParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly address: string;
  readonly opportunities: readonly Opportunity[];
  readonly now: Date;
  /** Called in the transaction that writes the policy (the audit trail, an idempotent answer). */
  readonly recordWrite?: WriteRecorder<AutopilotState> | undefined;
}

/**
 * POST …/autopilot/enable (owner): stores the policy (fields left out keep the stored ones, or
 * the defaults) and switches it on; the first tick is due at once.
 */
export async function enableAutopilot(
  parameters: SetAutopilotParameters & { readonly input: AutopilotEnableRequest },
): Promise<AutopilotState> {
  const { db, adapters, input, now } = parameters;
  const wallet = ledgerWallet(adapters, parameters.address);
  const stored = await readAutopilotPolicy(db, wallet);
  const chain = policyChain(
    adapters,
    parameters.address,
    input.chain ?? input.targetChain,
    stored,
    input.chain === undefined && input.targetChain !== undefined
      ? 'body.targetChain'
      : 'body.chain',
  );
  const venueAllowlist = input.venueAllowlist
    ? allowlistOf(input.venueAllowlist, chain, parameters.opportunities)
    : stored && stored.chain === chain
      ? stored.venueAllowlist
      : [];
  const write = {
    wallet,
    chain,
    enabled: true,
    rebalanceMinDeltaBps:
      input.rebalanceMinDeltaBps ?? stored?.rebalanceMinDeltaBps ?? AUTOPILOT_DEFAULT_MIN_DELTA_BPS,
    cadence: input.cadence ?? stored?.cadence ?? 'monthly',
    venueAllowlist,
    goal: input.goal ?? stored?.goal ?? 'max_apy_30d',
    nextTickAt: now,
    now,
  } as const;
  return recordedWrite(
    db,
    async (client) => stateOf(client, wallet, await writeAutopilotPolicy(client, write), now),
    parameters.recordWrite,
  );
}

/**
 * POST …/autopilot/disable (owner): the ticks stop and the policy is kept; positions stay where
 * they are (nothing is withdrawn, no plan is cancelled). A wallet without a policy is refused.
 */
export async function disableAutopilot(
  parameters: SetAutopilotParameters,
): Promise<AutopilotState> {
  const { db, now } = parameters;
  const wallet = ledgerWallet(parameters.adapters, parameters.address);
  const stored = await readAutopilotPolicy(db, wallet);
  if (!stored) {
    throw new EngineError(
      'AUTOPILOT_NOT_CONFIGURED',
      `wallet ${wallet} has no autopilot policy to disable`,
    );
  }
  return recordedWrite(
    db,
    async (client) =>
      stateOf(
        client,
        wallet,
        await writeAutopilotPolicy(client, { ...stored, enabled: false, now }),
        now,
      ),
    parameters.recordWrite,
  );
}
