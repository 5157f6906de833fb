import { readWalletGuardrails } from '@yieldrouter/ledger';
import type { GuardrailsRow, Books } from '@yieldrouter/ledger';
import type { Chain } from '@yieldrouter/schemas';
import type { Guardrails } from './checkGuardrails';

/** A stored row as `checkGuardrails` takes it. */
export const toGuardrails = (row: GuardrailsRow): Guardrails => ({
  // The database's CHECK keeps these to the four chains.
  allowedChains: row.allowedChains as readonly Chain[] | null,
  venueAllowlist: row.venueAllowlist,
  maxAllocationBps: row.maxAllocationBps,
  maxPerOpportunityMicros: row.maxPerOpportunityMicros,
  minNetApyBps: row.minNetApyBps,
});

/**
 * A wallet's guardrails (by its ledger key: `ledgerWallet(adapters, address)`), as
 * `checkGuardrails` takes them; a wallet whose owner set none has no limit.
 *
 * @example
 * checkGuardrails(await readGuardrails(db, wallet), proposal)
 */
export async function readGuardrails(db: Books, wallet: string): Promise<Guardrails> {
  return toGuardrails(await readWalletGuardrails(db, wallet));
}
