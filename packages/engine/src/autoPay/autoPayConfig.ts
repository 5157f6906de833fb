import { lockAutoPayConfig, readAutoPayConfig, writeAutoPayConfig } from '@yieldrouter/ledger';
import type { AutoPayConfigRow, Books, WriteRecorder } from '@yieldrouter/ledger';
import type {
  AutoPayConfigDocument,
  AutoPayConfigInput,
  AutoPayDocument,
} from '@yieldrouter/schemas';
import { formatMicros } from '@yieldrouter/schemas';
import type { ChainAdapters } from '../chains/chainsConfig';
import { EngineError } from '../errors';
import { recordedWrite } from '../recordedWrite';
import { chainOfAddress, ledgerWallet } from '../wallet/walletAddress';
import type { VenueConfig } from '../venues/venueConfig';
import { readAutoPayDocument } from './autoPayDocument';
import { poolClaimReader } from './readPoolClaim';

/** The config as documents show it (amounts as decimal strings). */
export function configDocument(row: AutoPayConfigRow): AutoPayConfigDocument {
  return {
    enabled: row.enabled,
    percentage: row.percentage,
    payees: row.payees.map((payee) => ({ ...payee })),
    trigger: row.trigger,
    minAmountMicros: formatMicros(row.minAmountMicros),
    maxPerPayeePerDayMicros:
      row.maxPerPayeePerDayMicros === null ? null : formatMicros(row.maxPerPayeePerDayMicros),
    dustMicros: formatMicros(row.dustMicros),
    emergencyPause: row.emergencyPause,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The config as stored: each payee address in its chain's canonical form. The schema checked
 * the shape (percentage, weights, duplicates); here each address must be one of the wallet's
 * chain (an EVM wallet pays EVM addresses, a Solana wallet Solana ones): 400 naming the payee.
 */
function checkedConfig(
  adapters: ChainAdapters,
  address: string,
  input: AutoPayConfigInput,
): Omit<AutoPayConfigRow, 'updatedAt'> {
  const chain = chainOfAddress(adapters, address);
  if (!chain) {
    throw new EngineError(
      'BAD_REQUEST',
      `path.address: ${address} is a label, not a chain address: auto-pay transfers are signed by the owner's address`,
      'path.address',
    );
  }
  const wallet = ledgerWallet(adapters, address);
  const seen = new Set<string>([wallet]);
  const payees = input.payees.map((payee, index) => {
    const field = `body.payees.${index}.address`;
    const canonical = adapters[chain].normalizeAddress(payee.address);
    if (!canonical) {
      throw new EngineError(
        'BAD_REQUEST',
        `${field}: ${payee.address} is not an address of the wallet's chain (${chain === 'base' ? 'EVM' : chain})`,
        field,
      );
    }
    if (seen.has(canonical)) {
      const what = canonical === wallet ? 'the wallet itself' : 'a duplicate payee';
      throw new EngineError('BAD_REQUEST', `${field}: ${canonical} is ${what}`, field);
    }
    seen.add(canonical);
    return { payeeId: payee.payeeId, address: canonical, weightBps: payee.weightBps };
  });
  return {
    enabled: input.enabled,
    percentage: input.percentage,
    payees,
    trigger: input.trigger,
    minAmountMicros: input.minAmountMicros ?? 0n,
    // "0" means no cap, as absence does.
    maxPerPayeePerDayMicros: input.maxPerPayeePerDayMicros || null,
    dustMicros: input.dustMicros ?? 0n,
    emergencyPause: input.emergencyPause ?? false,
  };
}

/**
 * PUT /wallets/{address}/auto-pay (owner): replaces the wallet's config. Checked whole before
 * anything is written (bad input is 400 naming the field, nothing stored); written with its
 * audit row and Idempotency-Key answer in one transaction. Harvests booked from now on accrue
 * with the new percentage; yield already accrued keeps the percentage it was booked with.
 * `input` may be built from the stored config (null: none yet), read under the wallet's
 * auto-pay lock in the same transaction, so a change of part of it (payees) loses no write.
 */
export async function setAutoPay(
  db: Books,
  adapters: ChainAdapters,
  venues: VenueConfig,
  address: string,
  input: AutoPayConfigInput | ((stored: AutoPayConfigRow | null) => AutoPayConfigInput),
  now: Date,
  recordWrite?: WriteRecorder<AutoPayDocument>,
): Promise<AutoPayDocument> {
  const wallet = ledgerWallet(adapters, address);
  const whole = typeof input === 'function' ? undefined : checkedConfig(adapters, address, input);
  return recordedWrite(
    db,
    async (client) => {
      await lockAutoPayConfig(client, wallet);
      const config =
        whole ??
        checkedConfig(
          adapters,
          address,
          (input as (stored: AutoPayConfigRow | null) => AutoPayConfigInput)(
            await readAutoPayConfig(client, wallet),
          ),
        );
      await writeAutoPayConfig(client, wallet, config, now);
      return readAutoPayDocument(
        client,
        wallet,
        now,
        poolClaimReader(client, adapters, venues, wallet),
      );
    },
    recordWrite,
  );
}

/** GET /wallets/{address}/auto-pay (owner or agent): the config, the pools, the next run. */
export async function getAutoPay(
  db: Books,
  adapters: ChainAdapters,
  venues: VenueConfig,
  address: string,
  now: Date,
): Promise<AutoPayDocument> {
  const wallet = ledgerWallet(adapters, address);
  return readAutoPayDocument(db, wallet, now, poolClaimReader(db, adapters, venues, wallet));
}
