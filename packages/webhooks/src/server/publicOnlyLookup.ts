import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './isPublicAddress';

/** The error code a connection gets when its host resolves to a non-public address. */
export const PRIVATE_ADDRESS_ERROR_CODE = 'ERR_WEBHOOK_PRIVATE_ADDRESS';

/**
 * A socket `lookup` that refuses to connect when the host resolves to any non-public address
 * ({@link isPublicAddress}). The check runs as the connection resolves the name, so the
 * address checked is the address connected to: no window for DNS rebinding.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
      const refused: NodeJS.ErrnoException = new Error(
        `${hostname} resolves to a private, loopback, link-local or reserved address`,
      );
      refused.code = PRIVATE_ADDRESS_ERROR_CODE;
      return callback(refused, '');
    }
    // Node asks for every address (`all`) when it races families; otherwise for one.
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    return callback(null, first.address, first.family);
  });
};
