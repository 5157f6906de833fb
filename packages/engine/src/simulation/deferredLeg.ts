import { findDeferredRoles, findPlan, recordDeferredLegSimulation } from '@yieldrouter/ledger';
import type { Books, PlanLegInput, Prisma, StoredPlanSimulation } from '@yieldrouter/ledger';
import type { Chain, PlanSimulatedData, SimulatedLeg } from '@yieldrouter/schemas';
import { InvalidChainInputError, PlanSimulation } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { storedPayload } from '../plan/legDocument';
import { storedJson } from '../plan/storedJson';
import { accountKey } from './accountKey';
import {
  rolesFromStored,
  simulatedLeg,
  simulationDigest,
  withCalledContracts,
} from './simulatePlan';
import { simulationFindings } from './simulationFindings';

type Simulated = Extract<PlanSimulation, { status: 'simulated' }>;

export interface DeferredLegParameters {
  readonly db: Books;
  readonly adapters: ChainAdapters;
  readonly now: Date;
}

/**
 * Issue 44 on Solana and Sui plans of several legs: a node simulates one transaction on the
 * current state, so prepare ran the first leg only and answered each later one `deferred`. Once
 * the leg a deferred leg waits for settled (confirmed; the caller just booked it, or replays it),
 * this runs that leg's stored unsigned bytes alone on the state the chain now has, with the
 * roles prepare judged the first leg with (0068's `deferred_roles`), and stores it in the plan's
 * simulation: the leg's outcome and `block`, its findings added to the plan's, a new digest,
 * and a `plan.simulated` event (its findings, for the client to read before signing it). Its own
 * settlement is then compared with it as the first leg's is.
 *
 * Nothing is run when the leg was signed and sent before (a txId on it: the chain may already
 * hold it, so a run now would not be of the state it ran on; it stays deferred and is not
 * compared), or when the chain cannot be read now (it stays deferred: a replay of the settled
 * leg, or the keeper's, tries again). Returns the leg as stored, or undefined when none was.
 */
export async function simulateDeferredLeg(
  parameters: DeferredLegParameters,
  settled: { readonly planId: string; readonly legIndex: number; readonly chain: string },
  stored: StoredPlanSimulation | null | undefined,
): Promise<SimulatedLeg | undefined> {
  if (!stored || stored.status !== 'simulated' || !stored.digest) return undefined;
  const document = storedJson(
    PlanSimulation,
    stored.document,
    `plan ${settled.planId}'s simulation`,
  );
  if (document.status !== 'simulated') return undefined;
  const waiting = document.legs.find(
    (leg) => leg.outcome === 'deferred' && leg.waitsFor === settled.legIndex,
  );
  if (!waiting || document.chain !== settled.chain) return undefined;
  const { db, adapters } = parameters;
  const plan = await findPlan(db, settled.planId);
  const next = plan?.legs[waiting.index];
  if (!plan?.owner || !next || next.status !== 'unsigned' || next.txId !== null) return undefined;
  const adapter = adapters[document.chain as Chain];
  if (!adapter.simulateLegs) return undefined;
  const payload = storedPayload(next);
  let reading;
  try {
    reading = await adapter.simulateLegs({ owner: plan.owner, payloads: [payload] });
  } catch (error) {
    if (error instanceof InvalidChainInputError) return undefined;
    throw error;
  }
  const read = reading.status === 'ok' ? reading.legs[0] : undefined;
  if (reading.status !== 'ok' || !read || read.outcome === 'deferred') return undefined;
  const legs: PlanLegInput[] = plan.legs.map((leg) => ({
    ...leg,
    payload: leg.payload as Prisma.InputJsonValue,
  }));
  const stated = rolesFromStored(await findDeferredRoles(db, plan.id), plan.owner);
  const roles = withCalledContracts(stated, legs, reading, waiting.index);
  const usdc = reading.usdc ? accountKey(reading.usdc) : undefined;
  const leg: SimulatedLeg = {
    ...simulatedLeg(read, waiting.index, payload, roles, usdc),
    block: reading.block,
  };
  const findings = simulationFindings(legs, [leg], plan.owner, document.chain, roles.legSkims);
  const simulatedLegs = document.legs.map((entry) => (entry.index === leg.index ? leg : entry));
  const digest = simulationDigest(plan.id, simulatedLegs);
  const updated: Simulated = {
    ...document,
    legs: simulatedLegs,
    findings: [...document.findings, ...findings],
    digest,
  };
  const data: PlanSimulatedData = {
    planId: plan.id,
    legIndex: leg.index,
    chain: document.chain,
    wallet: plan.wallet ?? plan.owner,
    afterLegIndex: settled.legIndex,
    simulationDigest: digest,
    leg,
    findings,
  };
  const written = await recordDeferredLegSimulation(db, {
    planId: plan.id,
    fromDigest: stored.digest,
    digest,
    document: updated as unknown as Prisma.InputJsonObject,
    stillDeferred: simulatedLegs.some((entry) => entry.outcome === 'deferred'),
    events: [
      {
        type: 'plan.simulated',
        wallet: plan.wallet,
        payload: data as unknown as Prisma.InputJsonObject,
      },
    ],
    now: parameters.now,
  });
  return written ? leg : undefined;
}
