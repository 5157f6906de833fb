import { BridgeDeliveryRequest, BridgePlanRequest, BridgeRescueRequest } from '../bridge';
import { OpenDocument } from '../params';
import { PlanDocument } from '../planDocuments';
import { defineRoute } from './defineRoute';
import { plan, OWNER, OWNER_KEEPER, ok } from './routeParts';

/** Bridge plans, deliveries and rescues. */
export const bridgeRoutes = {
  prepareBridgePlan: defineRoute({
    operationId: 'prepareBridgePlan',
    method: 'post',
    path: '/svc/bridge/plan',
    versioned: true,
    auth: 'public',
    summary: 'Cross-chain plan with fee and risk disclosure; owner signs.',
    tags: ['bridge'],
    request: { body: BridgePlanRequest },
    responses: plan,
  }),
  confirmBridgeDelivery: defineRoute({
    operationId: 'confirmBridgeDelivery',
    method: 'post',
    path: '/svc/bridge/delivery',
    versioned: true,
    auth: OWNER_KEEPER,
    summary: 'Credit only after confirmed delivery.',
    description: [
      'Body `{planId}`: where the bridge stands (`bridgeStatus`) and, once the burn is attested,',
      '`mintLeg` (the destination mint for the owner to sign; anyone may submit it) with',
      "`mintSimulation`: the leg run on the destination chain (a plan's `simulation` shape, the",
      "mint under the index after the plan's legs; `unavailable` with a reason when the chain",
      'cannot be read). Body `{planId, destTxId}`: the confirmed mint of this plan credits liquid',
      'on the destination, once, and what it moved is compared with that simulation (a',
      'difference: `plan.divergence`, the books follow the receipt).',
    ].join('\n'),
    tags: ['bridge'],
    request: { body: BridgeDeliveryRequest },
    responses: ok(OpenDocument),
  }),
  rescueBridge: defineRoute({
    operationId: 'rescueBridge',
    method: 'post',
    path: '/svc/bridge/rescue',
    versioned: true,
    auth: OWNER,
    summary: 'Failed bridge; destination locked to the owner.',
    description: [
      "Body `{planId}`: a bridge plan of the key's wallet that failed (its attestation did not",
      "come within the rail's window, SVC_CCTP_ATTESTATION_WINDOW_<SPEED>_MS, or its mint",
      'reverted; `bridge.failed` was sent). The answer (a bridge rescue document) is prepared',
      'with the recovery leg — for CCTP the `mint` leg on the',
      'destination (`receiveMessage` of the attested burn), which mints only to the recipient',
      "the burn fixed: the owner's address, from the plan's record, never from the request —",
      'or blocked `bridge_attestation_pending` while the attestation is still missing (the',
      'amount stays in flight). Fields: bridgeStatus `failed`, rail, sourceChain, destChain,',
      'recipient, inFlightMicros, burnTxId, failedAt, failureReason, legs or blockers, next.',
      'Nothing is credited by this call: the signed mint is reported with POST',
      '/svc/bridge/delivery {planId, destTxId}, and only its confirmed receipt credits liquid on',
      'the destination, once (a second mint of the same message cannot exist on chain; a second',
      'report is a replay).',
      '',
      'Refused, nothing prepared or credited: an agent key → 403 UNAUTHORIZED (the role table); a',
      'plan of another wallet → 403 WALLET_SCOPE; a body naming a destinationAddress,',
      "recipient or mintRecipient other than the plan's → 400 RESCUE_DESTINATION_LOCKED; an",
      'unknown plan → 404 PLAN_NOT_FOUND; a bridge that is not failed (awaiting its burn, in',
      'flight within its window, delivered, or a burn that reverted and moved nothing) → 409',
      'BRIDGE_NOT_FAILED.',
    ].join('\n'),
    tags: ['bridge'],
    request: { body: BridgeRescueRequest },
    responses: {
      200: {
        description: 'A prepared rescue (the mint leg to sign) or a blocked one (blockers[]).',
        schema: PlanDocument,
      },
    },
  }),
} as const;
