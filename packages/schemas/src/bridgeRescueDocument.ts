import { z } from 'zod';
import { Chain } from './chains';
import { MicrosOut } from './money';
import { PlanDocument } from './planDocuments';

/** POST /svc/bridge/rescue: the recovery of a failed bridge, to the owner only. */
export const BridgeRescueDocument = PlanDocument.extend({
  bridgeStatus: z.literal('failed'),
  rail: z.string(),
  sourceChain: Chain,
  destChain: Chain,
  recipient: z.string().meta({
    description:
      "Where the rescue pays: the owner's address on the destination chain, from the plan's " +
      'record (the burn fixed it); never taken from the request.',
  }),
  inFlightMicros: MicrosOut.meta({
    description: "What the burn moved into the owner's in_flight; it stays there until a mint.",
  }),
  burnTxId: z.string().nullable(),
  failedAt: z.string(),
  failureReason: z.string(),
  next: z.string().meta({
    description:
      'What to do now: sign and submit the mint leg, then report it with POST ' +
      '/svc/bridge/delivery {planId, destTxId}; the confirmed mint credits once.',
  }),
}).meta({
  description:
    "A failed bridge's rescue. Prepared: the mint leg on the destination (CCTP receiveMessage of " +
    "the attested burn), minting only to the owner's address the burn named; it credits liquid on " +
    'the destination from its own confirmed receipt, once. Blocked (bridge_attestation_pending): ' +
    'the attestation has not come yet; the amount stays in flight. Both answer 200; nothing is ' +
    'credited by this call.',
});
export type BridgeRescueDocument = z.infer<typeof BridgeRescueDocument>;
