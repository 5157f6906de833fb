/**
 * An account or asset as simulations compare it: hex (EVM, Sui: `0x…`) in lower case, since its
 * case carries nothing but a checksum; anything else (a Solana base58 address or mint) as it is,
 * since there case is the address.
 */
export const accountKey = (text: string): string =>
  /^0x[0-9a-f]+$/i.test(text) ? text.toLowerCase() : text;

/** Whether two accounts (or assets) are the same: {@link accountKey} of each. */
export const sameAccount = (a: string, b: string): boolean => accountKey(a) === accountKey(b);
