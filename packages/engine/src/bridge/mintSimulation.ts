import { recordPlanDivergence } from '@yieldrouter/ledger';
import type { Books, OutboxEventInput } from '@yieldrouter/ledger';
import type {
  Chain,
  ChainAdapter,
  PlanDivergenceData,
  SimulatedLeg,
  SimulationFinding,
  UnsignedLeg,
} from '@yieldrouter/schemas';
import { InvalidChainInputError, PlanSimulation, formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import { storedJson } from '../plan/storedJson';
import { accountKey } from '../simulation/accountKey';
import { divergentChanges, landedBeforeItsSimulation } from '../simulation/legDivergence';
import { simulatedLeg, simulationDigest } from '../simulation/simulatePlan';

/** The destination chains a mint may be simulated and compared on (absent: `not_supported`). */
export type MintSimulationAdapters = {
  readonly [C in Chain]?: Pick<ChainAdapter, 'simulateLegs' | 'readLegChanges'>;
};

const unavailable = (
  reason: Extract<PlanSimulation, { status: 'unavailable' }>['reason'],
  detail: string,
): PlanSimulation => ({ status: 'unavailable', reason, detail });

const usdcOf = (leg: SimulatedLeg, role: string) =>
  leg.changes
    .filter((change) => change.usdc && change.role === role)
    .reduce((total, change) => total + BigInt(change.delta), 0n);

/**
 * What a simulated mint does otherwise than the bridge says: it reverts; the recipient's USDC
 * does not rise by what the burn allows (`least` = burned − the rail's most, `most` = burned);
 * or USDC reaches anyone else (`other`) beyond what the rail keeps of this mint (its fee, paid
 * to its fee recipient: burned − what the recipient gets, at most the burn's maxFee).
 */
export function mintFindings(
  leg: SimulatedLeg,
  bounds: { readonly least: bigint; readonly most: bigint },
): SimulationFinding[] {
  if (leg.outcome === 'reverted') {
    const detail = leg.detail ? `: ${leg.detail}` : '';
    return [
      {
        legIndex: leg.index,
        code: 'reverted',
        message: `the mint reverts on the destination's current state${detail}`,
      },
    ];
  }
  const findings: SimulationFinding[] = [];
  const received = usdcOf(leg, 'owner');
  if (received < bounds.least || received > bounds.most) {
    findings.push({
      legIndex: leg.index,
      code: 'owner_amount_mismatch',
      message: `the recipient's USDC changes by ${formatMicros(received)}; the burn allows ${formatMicros(bounds.least)}..${formatMicros(bounds.most)}`,
    });
  }
  // The rail keeps what the recipient does not get, and never more than the burn's maxFee.
  const unpaid = bounds.most - (received > 0n ? received : 0n);
  const railMost = bounds.most - bounds.least;
  const kept = unpaid < railMost ? unpaid : railMost;
  const others = leg.changes.filter(
    (change) => change.usdc && change.role === 'other' && BigInt(change.delta) > 0n,
  );
  const paid = others.reduce((total, change) => total + BigInt(change.delta), 0n);
  if (paid > kept) {
    for (const change of others) {
      findings.push({
        legIndex: leg.index,
        code: 'unexpected_recipient',
        message: `${change.account} receives ${change.delta} micros of USDC; the rail keeps at most ${formatMicros(kept)} of this mint`,
      });
    }
  }
  return findings;
}

export interface SimulateMintLegParameters {
  readonly adapters: MintSimulationAdapters;
  readonly planId: string;
  /** The destination chain, where the mint is signed. */
  readonly chain: Chain;
  /** The mint's index in the plan's numbering: the one after the plan's own legs. */
  readonly index: number;
  /** The bridge's recipient (whom the mint credits; its `owner` role). */
  readonly recipient: string;
  readonly leg: UnsignedLeg;
  readonly least: bigint;
  readonly most: bigint;
}

/**
 * Issue 44 on a bridge's mint: the leg `POST /svc/bridge/delivery` serves once the burn is
 * attested, run alone on the destination chain's current state as its signer (the recipient),
 * bound to its bytes (`bytesDigest`), with its findings (`mintFindings`). The contracts it calls
 * (the transmitter, the token messenger) are `venue`; the rail's fee recipient is `other`,
 * allowed up to the fee the burn left it. A chain that cannot be read, or has no simulation, is
 * `unavailable` with the reason: never a guessed outcome.
 */
export async function simulateMintLeg(
  parameters: SimulateMintLegParameters,
): Promise<PlanSimulation> {
  const { chain, leg, index } = parameters;
  const adapter = parameters.adapters[chain];
  if (!adapter?.simulateLegs) {
    return unavailable('not_supported', `${chain}: no simulation of legs on this chain yet`);
  }
  let reading;
  try {
    reading = await adapter.simulateLegs({
      owner: parameters.recipient,
      payloads: [leg.payload],
    });
  } catch (error) {
    if (!(error instanceof InvalidChainInputError)) throw error;
    return unavailable('not_supported', `${chain}: ${error.message}`);
  }
  if (reading.status === 'unavailable') return unavailable(reading.reason, reading.detail);
  const [read] = reading.legs;
  if (!read || read.outcome === 'deferred') {
    return unavailable('rpc_bad_response', `${chain}: the simulation answered no mint leg`);
  }
  const roles = {
    owner: parameters.recipient,
    venue: [...(reading.venue ?? []), ...(read.calls ?? [])],
    treasury: [...(reading.treasury ?? [])],
  };
  const usdc = reading.usdc ? accountKey(reading.usdc) : undefined;
  const simulated = simulatedLeg(read, index, leg.payload, roles, usdc);
  return {
    status: 'simulated',
    chain,
    method: reading.method,
    block: reading.block,
    legs: [simulated],
    findings: mintFindings(simulated, parameters),
    digest: simulationDigest(parameters.planId, [simulated]),
  };
}

/**
 * Settlement's check of a delivering mint against the mint's stored simulation: what `txId`
 * moved on the destination, read as any leg's, compared account by account with the simulated
 * changes, every USDC balance at zero tolerance (the attested message fixes the amount and the
 * rail's fee: a mint of the same burn under another attestation, another fee within the burn's
 * most, is credited and diverges). A difference is recorded (plan_divergences, under the mint's
 * index) before the delivery is booked, and returned as the `plan.divergence` event the
 * delivery writes with its booking. Nothing is compared without a simulated mint (none served,
 * `unavailable`, or one that reverted: the message was used before its simulation ran), nor a
 * mint that landed before its simulation ran (Solana's slot, Sui's checkpoint). A chain that
 * cannot be read for it is 503: the delivery is not credited without it.
 */
export async function mintDivergence(
  parameters: {
    readonly db: Books;
    readonly adapters: MintSimulationAdapters;
    readonly planId: string;
    readonly chain: Chain;
    readonly recipient: string;
    readonly txId: string;
    readonly now: Date;
  },
  stored: unknown,
): Promise<OutboxEventInput[]> {
  if (stored === null || stored === undefined) return [];
  const read = storedJson(PlanSimulation, stored, `plan ${parameters.planId}'s mint simulation`);
  const simulation = read.status === 'simulated' ? read : undefined;
  const leg = simulation?.legs[0];
  const { chain, txId } = parameters;
  const adapter = parameters.adapters[chain];
  if (!simulation || !leg || leg.outcome !== 'ok' || simulation.chain !== chain) return [];
  if (!adapter?.readLegChanges) return [];
  const reading = await adapter.readLegChanges(txId);
  if (reading.status !== 'ok') {
    const why = reading.status === 'pending' ? 'not mined yet' : reading.detail;
    throw new EngineError(
      'SERVICE_UNAVAILABLE',
      `${chain}: what ${txId} moved could not be read to compare with the mint's simulation (${why}); try again`,
    );
  }
  if (landedBeforeItsSimulation(chain, reading.block, simulation.block)) return [];
  const changes = divergentChanges(leg.changes, reading.changes, parameters.recipient);
  if (changes.length === 0) return [];
  await recordPlanDivergence(parameters.db, {
    planId: parameters.planId,
    legIndex: leg.index,
    txId,
    simulationDigest: simulation.digest,
    changes: changes.map((change) => ({ ...change })),
    now: parameters.now,
  });
  const payload: PlanDivergenceData = {
    planId: parameters.planId,
    legIndex: leg.index,
    chain,
    wallet: parameters.recipient,
    txId,
    simulationDigest: simulation.digest,
    changes,
  };
  return [{ type: 'plan.divergence', wallet: parameters.recipient, payload }];
}
