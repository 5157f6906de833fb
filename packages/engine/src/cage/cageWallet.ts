import { normalizeEvmAddress } from '@yieldrouter/chain-evm';
import { EngineError } from '../errors';

/** A checksummed EVM address, as the EVM adapter writes it. */
export type CageAddress = NonNullable<ReturnType<typeof normalizeEvmAddress>>;

/** The owner's address in checksum form; anything but an EVM address is 400 on `field`. */
export function cageWallet(address: string, field: string): CageAddress {
  const owner = normalizeEvmAddress(address);
  if (!owner) {
    throw new EngineError('BAD_REQUEST', `${field}: must be an EVM address (0x + 40 hex)`, field);
  }
  return owner;
}
