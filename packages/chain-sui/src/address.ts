import { InvalidChainInputError } from '@yieldrouter/schemas';
import { normalizeSuiAddress } from '@mysten/sui/utils';

const SUI_ADDRESS = /^0x[0-9a-fA-F]{1,64}$/;

/** The canonical Sui address (0x + 64 lowercase hex), or undefined when `value` is not one. */
export function normalizeSuiOwner(value: string): string | undefined {
  return SUI_ADDRESS.test(value) ? normalizeSuiAddress(value) : undefined;
}

/** The canonical address, or `InvalidChainInputError` naming `field`. */
export function requireSuiAddress(field: string, value: string): string {
  const address = normalizeSuiOwner(value);
  if (address === undefined) {
    throw new InvalidChainInputError(field, `${field}: must be a Sui address (0x + 1..64 hex)`);
  }
  return address;
}
