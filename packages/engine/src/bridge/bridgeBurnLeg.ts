import { findBridgeTransfer } from '@yieldrouter/ledger';
import type { AccountRef, LedgerChain, Books, SettlementLeg } from '@yieldrouter/ledger';
import type { Chain, Receipt } from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import { EngineError } from '../errors';
import type { LegOutcome } from '../wallet/recordLegOutcome';
import type { BridgeRail } from './bridgeRail';
import { CCTP_DOMAINS } from './bridgeRail';
import { bridgeLegOutcome } from './bridgeLegOutcome';

const HEX = /^0x[0-9a-fA-F]+$/;

/**
 * Whether two renderings name one address: hex (EVM, Sui) in any letter case (EVM's checksum
 * casing is not part of the address), anything else (Solana's base58) exactly.
 */
const sameAddress = (a: string, b: string): boolean =>
  HEX.test(a) && HEX.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * A bridge plan's burn leg as settlement reads it: the rail's burn receipt (the owner's own,
 * tagged, to the burn contract), which must burn towards the plan's destination chain and
 * recipient; anything else is a mismatch. Confirmed with the amount the receipt burned. `owner`
 * is the transfer's owner on the source chain (across chain families not the plan's wallet,
 * which is the owner on the destination).
 */
export async function readBridgeBurnLeg(
  db: Books,
  rail: BridgeRail | undefined,
  leg: SettlementLeg,
  txId: string,
): Promise<{ readonly receipt: Receipt; readonly owner: string }> {
  if (!rail) {
    throw new EngineError('SERVICE_UNAVAILABLE', 'no bridge rail is configured; try again later');
  }
  const transfer = await findBridgeTransfer(db, leg.planId);
  if (!transfer) throw new Error(`plan ${leg.planId}: a burn leg without its bridge transfer`);
  const lane = { sourceChain: transfer.sourceChain, destChain: transfer.destChain };
  const read = await rail.readBurn({ lane, planId: leg.planId, owner: transfer.owner, txId });
  const owner = transfer.owner;
  if (read.status !== 'confirmed') return { receipt: read, owner };
  if (read.destinationDomain !== CCTP_DOMAINS[transfer.destChain as Chain]) {
    const reason = `burns towards domain ${read.destinationDomain}`;
    return { receipt: { status: 'mismatch', txId, reason }, owner };
  }
  const expected = rail.mintRecipientOf?.(lane, transfer.recipient) ?? transfer.recipient;
  if (!sameAddress(read.mintRecipient, expected)) {
    const reason = `mints to ${read.mintRecipient}, not the owner`;
    return { receipt: { status: 'mismatch', txId, reason }, owner };
  }
  const receipt: Receipt = {
    status: 'confirmed',
    txId,
    planId: leg.planId,
    amountMicros: read.amountMicros,
    shares: null,
    block: null,
  };
  return { receipt, owner };
}

/**
 * What a settled burn does to the books: the USDC left the owner's wallet (outside the books)
 * into the rail, so what the receipt burned moves from the source chain's outside into the
 * `owner`'s `in_flight` there (the transfer's owner on the source chain, whose in_flight the
 * delivery debits) — never to the destination, which only a confirmed mint credits. A reverted
 * burn moved nothing and reserved nothing.
 */
export function bridgeBurnOutcome(
  leg: SettlementLeg,
  receipt: Extract<Receipt, { status: 'confirmed' | 'failed' }>,
  owner: string,
): LegOutcome {
  const inFlight: AccountRef = {
    wallet: owner,
    chain: leg.chain as LedgerChain,
    bucket: 'in_flight',
  };
  return bridgeLegOutcome(
    leg,
    receipt,
    inFlight,
    (amount) =>
      `the burn moved ${formatMicros(amount)} micros; the plan burns ${formatMicros(leg.amountMicros)}`,
  );
}
