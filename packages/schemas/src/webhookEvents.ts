import { z } from 'zod';
import { ApyUpdatedPayload } from './apyUpdatedEvent';
import { Chain } from './chains';
import { MicrosOut } from './money';
import { DivergentChange, SimulatedLeg, SimulationFinding } from './planSimulation';
import type { WebhookEventType } from './webhookEventType';
import { WEBHOOK_EVENT_SCHEMA_VERSION } from './webhookEventType';

/**
 * Webhook events: the eleven types, the payload (`data`) of each, and the versioned envelope
 * every delivery's body is. A receiver dedupes on `id` (the same event can arrive more than
 * once: delivery is at least once).
 */

/** What each event type means (served by GET /svc/webhooks/events/types). */
export const WEBHOOK_EVENT_DESCRIPTIONS: Readonly<Record<WebhookEventType, string>> = {
  'deposit.settled':
    "A deposit leg (route into the router, or a venue deposit) settled from its receipt; the wallet's ledger moved.",
  'withdraw.settled':
    'A withdrawal leg (out of the router, or out of a venue) settled from its receipt.',
  'harvest.completed': 'Yield was harvested from a venue position and compounded.',
  'bridge.delivered': 'A bridge transfer was confirmed on the destination chain and credited.',
  'bridge.failed': 'A bridge transfer failed; the amount can be rescued to the owner.',
  'position.updated':
    "A wallet's position changed: a leg settled, or a failed leg released its reservation.",
  'apy.updated': "A venue's live APY changed (market-wide: no wallet).",
  'reconciliation.drift':
    "Reconciliation found the wallet's books and the chain apart by more than the threshold: money on a venue our plans did not put there, shares the books track that the chain does not hold, a position worth less than its mark, or a reservation without its open leg.",
  'auto_pay.paid':
    'An auto-pay transfer leg settled from its receipt: the payee received the amount the chain proved, paid from the yield the run withdrew (never principal).',
  'plan.divergence':
    "A settled leg's transaction moved USDC otherwise than the plan's simulation at prepare (a fee-on-transfer token, a venue that skims): the books follow the receipt, the leg is flagged for review.",
  'plan.simulated':
    "A deferred leg of a Solana or Sui plan (it runs on what the leg before it leaves) was simulated once that leg settled, on the state the chain then had: its outcome, its findings (none: it does what the plan says) and the plan's new simulation digest. Read them before signing the leg.",
};

/** The settled leg an event is about. */
const LegFields = {
  planId: z.string(),
  legIndex: z.number().int(),
  chain: Chain,
  wallet: z.string().meta({ description: 'The ledger wallet (canonical address).' }),
  txId: z.string().meta({ description: 'The transaction the receipt was read from.' }),
};

const SettledFields = {
  ...LegFields,
  opportunityId: z.string().nullable().meta({ description: 'Null for the router itself.' }),
  venueId: z.string().nullable(),
  quotedAmountMicros: MicrosOut.meta({ description: 'What the plan quoted.' }),
  amountMicros: MicrosOut.meta({ description: 'What the receipt shows (credited or debited).' }),
};

export const DepositSettledData = z.object(SettledFields);
export type DepositSettledData = z.infer<typeof DepositSettledData>;

export const WithdrawSettledData = z.object(SettledFields);
export type WithdrawSettledData = z.infer<typeof WithdrawSettledData>;

export const PositionUpdatedData = z.object({
  wallet: LegFields.wallet,
  chain: Chain,
  cause: z.enum(['settled', 'released', 'harvested']).meta({
    description:
      'settled: a leg moved money; released: a failed leg gave its reservation back; ' +
      'harvested: yield was compounded into a staked position.',
  }),
  planId: z.string().nullable().meta({ description: 'The leg’s plan; null for a harvest.' }),
  legIndex: z.number().int().nullable(),
  txId: z.string().nullable().meta({ description: 'The leg’s transaction; null for a harvest.' }),
  harvestId: z.string().nullable().meta({ description: 'The harvest; null for a leg.' }),
});
export type PositionUpdatedData = z.infer<typeof PositionUpdatedData>;

export const HarvestCompletedData = z.object({
  harvestId: z.string(),
  wallet: z.string(),
  chain: Chain,
  opportunityId: z.string(),
  venueId: z.string().nullable(),
  valueMicros: MicrosOut.meta({ description: 'The position value read on chain.' }),
  basisMicros: MicrosOut.meta({
    description: 'Staked balance plus the fees earlier harvests left in the position.',
  }),
  grossYieldMicros: MicrosOut.meta({ description: 'value − basis.' }),
  protocolFeeMicros: MicrosOut.meta({ description: 'The yield skim, to protocol fees.' }),
  profitFeeMicros: MicrosOut.meta({ description: 'The harvest profit fee; 0 while off.' }),
  netYieldMicros: MicrosOut.meta({ description: 'Compounded into the staked position.' }),
  asOf: z.string().meta({ description: 'When the value was read on chain (ISO 8601).' }),
});
export type HarvestCompletedData = z.infer<typeof HarvestCompletedData>;

const BridgeFields = {
  wallet: z.string(),
  planId: z.string(),
  sourceChain: Chain,
  destinationChain: Chain,
  amountMicros: MicrosOut,
};

export const BridgeDeliveredData = z.object({
  ...BridgeFields,
  sourceTxId: z.string(),
  destinationTxId: z.string(),
});
export type BridgeDeliveredData = z.infer<typeof BridgeDeliveredData>;

export const BridgeFailedData = z.object({
  ...BridgeFields,
  sourceTxId: z.string().nullable(),
  reason: z.string(),
  refundTo: z.string().meta({
    description: "The owner's address on the destination chain: the only place a rescue pays.",
  }),
  rescue: z
    .object({ method: z.literal('POST'), path: z.string(), hint: z.string() })
    .meta({ description: 'How the owner rescues it: POST {planId} to this path.' }),
});
export type BridgeFailedData = z.infer<typeof BridgeFailedData>;

/** Why reconciliation reports a drift (see the `reconciliation.drift` event). */
export const DriftKind = z.enum([
  'untracked',
  'shares_missing',
  'value_below_books',
  'reservation_without_leg',
  'wallet_below_books',
  'shares_unknown',
  'in_flight_without_bridge',
  'auto_pay_without_payout',
  'staked_without_position',
  'skim_receivable',
  'treasury_below_books',
]);
export type DriftKind = z.infer<typeof DriftKind>;

export const ReconciliationDriftData = z.object({
  runId: z.string().meta({ description: 'The reconciliation run that found it.' }),
  wallet: z.string(),
  chain: Chain,
  opportunityId: z
    .string()
    .nullable()
    .meta({ description: 'The venue position; null for a wallet-wide drift.' }),
  venueId: z.string().nullable(),
  kind: DriftKind.meta({
    description:
      'untracked: money on the venue our plans did not put there (an outside deposit, a leg not ' +
      'settled yet); shares_missing: the chain holds fewer shares than the books track; ' +
      'value_below_books: the tracked shares are worth less than their mark (a loss); ' +
      'reservation_without_leg: a pending balance that no open leg accounts for; ' +
      'wallet_below_books: the chain shows less of an asset in the owner wallet than the books; ' +
      'shares_unknown: a position whose shares were never tracked (nothing can be matched); ' +
      'in_flight_without_bridge: in_flight differs from the bridges not delivered yet; ' +
      'auto_pay_without_payout: auto_pay differs from what runs with an open payout hold; ' +
      'staked_without_position: a staked balance differs from its position; ' +
      "skim_receivable: a withdrawal's skim the treasury has not received (owed by the owner); " +
      'treasury_below_books: the treasury holds less than the skims the books say it received.',
  }),
  booksMicros: MicrosOut.meta({ description: 'What the books hold.' }),
  chainMicros: MicrosOut.meta({ description: 'What the chain (or the open legs) say.' }),
  driftMicros: MicrosOut.meta({ description: 'The size of the difference.' }),
  cause: z.string(),
});
export type ReconciliationDriftData = z.infer<typeof ReconciliationDriftData>;

function envelope<T extends WebhookEventType, D extends z.ZodObject>(type: T, data: D) {
  return z
    .object({
      id: z
        .string()
        .regex(/^evt_[0-9a-f]{32}$/)
        .meta({ description: 'Stable event id: the same on every retry. Dedupe on it.' }),
      type: z.literal(type),
      schemaVersion: z.literal(WEBHOOK_EVENT_SCHEMA_VERSION),
      createdAt: z
        .string()
        .meta({ description: 'When the change that caused the event committed (ISO 8601).' }),
      data,
    })
    .meta({ description: WEBHOOK_EVENT_DESCRIPTIONS[type] });
}

export const AutoPayPaidData = z.object({
  ...LegFields,
  opportunityId: z.string().meta({ description: 'The position whose yield paid it.' }),
  payeeId: z.string(),
  payee: z.string().meta({ description: "The payee's address on the chain." }),
  quotedAmountMicros: MicrosOut.meta({ description: 'What the run planned to pay.' }),
  amountMicros: MicrosOut.meta({ description: 'What the receipt proves the payee received.' }),
});
export type AutoPayPaidData = z.infer<typeof AutoPayPaidData>;

export const PlanDivergenceData = z.object({
  ...LegFields,
  simulationDigest: z
    .string()
    .meta({ description: "The plan simulation's digest (`sha256:<hex>`)." }),
  changes: z.array(DivergentChange),
});
export type PlanDivergenceData = z.infer<typeof PlanDivergenceData>;

export const PlanSimulatedData = z.object({
  planId: z.string(),
  legIndex: z.number().int().meta({ description: 'The leg now simulated.' }),
  chain: Chain,
  wallet: z.string().meta({ description: 'The ledger wallet (canonical address).' }),
  afterLegIndex: z
    .number()
    .int()
    .meta({ description: 'The leg whose settlement it waited for (its state is what it ran on).' }),
  simulationDigest: z
    .string()
    .meta({ description: "The plan simulation's new digest (`sha256:<hex>`)." }),
  leg: SimulatedLeg,
  findings: z.array(SimulationFinding).meta({
    description: "This leg's findings (also in the plan's `simulation.findings`): do not sign it.",
  }),
});
export type PlanSimulatedData = z.infer<typeof PlanSimulatedData>;

export const DepositSettledEvent = envelope('deposit.settled', DepositSettledData);
export const WithdrawSettledEvent = envelope('withdraw.settled', WithdrawSettledData);
export const HarvestCompletedEvent = envelope('harvest.completed', HarvestCompletedData);
export const BridgeDeliveredEvent = envelope('bridge.delivered', BridgeDeliveredData);
export const BridgeFailedEvent = envelope('bridge.failed', BridgeFailedData);
export const PositionUpdatedEvent = envelope('position.updated', PositionUpdatedData);
export const ApyUpdatedEvent = envelope('apy.updated', ApyUpdatedPayload);
export const ReconciliationDriftEvent = envelope('reconciliation.drift', ReconciliationDriftData);
export const AutoPayPaidEvent = envelope('auto_pay.paid', AutoPayPaidData);
export const PlanDivergenceEvent = envelope('plan.divergence', PlanDivergenceData);
export const PlanSimulatedEvent = envelope('plan.simulated', PlanSimulatedData);

/** The envelope schema of each type, in the order of {@link WebhookEventType}. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'deposit.settled': DepositSettledEvent,
  'withdraw.settled': WithdrawSettledEvent,
  'harvest.completed': HarvestCompletedEvent,
  'bridge.delivered': BridgeDeliveredEvent,
  'bridge.failed': BridgeFailedEvent,
  'position.updated': PositionUpdatedEvent,
  'apy.updated': ApyUpdatedEvent,
  'reconciliation.drift': ReconciliationDriftEvent,
  'auto_pay.paid': AutoPayPaidEvent,
  'plan.divergence': PlanDivergenceEvent,
  'plan.simulated': PlanSimulatedEvent,
} as const satisfies Record<WebhookEventType, z.ZodObject>;

/** A delivery's body: `{ id, type, schemaVersion, createdAt, data }`, by type. */
export const WebhookEvent = z.discriminatedUnion('type', [
  DepositSettledEvent,
  WithdrawSettledEvent,
  HarvestCompletedEvent,
  BridgeDeliveredEvent,
  BridgeFailedEvent,
  PositionUpdatedEvent,
  ApyUpdatedEvent,
  ReconciliationDriftEvent,
  AutoPayPaidEvent,
  PlanDivergenceEvent,
  PlanSimulatedEvent,
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
