import type { BridgeLane } from '@yieldrouter/schemas';
import type { BridgeSpeed } from './bridgeRail';

export interface BridgeDisclosureParameters {
  readonly lane: BridgeLane;
  readonly speed: BridgeSpeed;
  readonly owner: string;
  readonly recipient: string;
  readonly etaSeconds: number;
  /** The amount as a person reads it ("25 USDC"). */
  readonly amount: string;
}

/**
 * What every bridge plan discloses before the owner signs: the rail, attestation and relaying
 * risks, the finality it waits for, what happens on failure and where the money goes then — to
 * the owner, always (`refundTo`).
 *
 * @example
 * bridgeDisclosure({ lane, speed: 'standard', owner, recipient: owner, etaSeconds: 1200, amount: '25 USDC' })
 */
export function bridgeDisclosure(parameters: BridgeDisclosureParameters) {
  const { lane, speed, owner, recipient } = parameters;
  const minutes = Math.max(1, Math.round(parameters.etaSeconds / 60));
  return {
    risks: [
      `Rail: Circle CCTP v2 burns ${parameters.amount} of native USDC on ${lane.sourceChain} and mints it on ${lane.destChain}; both legs run Circle's contracts.`,
      `Attestation: the mint needs Circle's attestation of the burn; while it is missing the amount stays in flight (shown as in_flight), credited nowhere.`,
      speed === 'fast'
        ? `Finality: fast — minted after the burn's soft finality (about ${minutes} min, an estimate) for the rail fee shown.`
        : `Finality: standard — minted after ${lane.sourceChain} finalizes the burn (about ${minutes} min, an estimate); no rail fee.`,
      `Relaying: nobody relays for you; once attested, POST /svc/bridge/delivery prepares the mint leg for the owner to sign and simulates it on ${lane.destChain} (mintSimulation: not before, as the leg does not exist until the attestation does); anyone may submit it, it can only mint to ${recipient}, and whoever submits it, what it moved is compared with that simulation.`,
      `On failure: a reverted burn moves nothing; a burned amount can only be minted to ${recipient} on ${lane.destChain}, never redirected; the destination is credited only after a confirmed mint.`,
    ],
    refundTo: owner,
  };
}
