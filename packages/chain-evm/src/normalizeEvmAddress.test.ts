import { getAddress, isAddress } from 'viem';
import { normalizeEvmAddress } from './normalizeEvmAddress';

const CHECKSUMMED = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
/** viem's answer, with an all-capitals address read as unchecksummed (EIP-55) like lowercase. */
const viemAnswer = (address: string) => {
  const body = address.slice(2);
  const plain = body === body.toUpperCase() ? `0x${body.toLowerCase()}` : address;
  return address.startsWith('0x') && isAddress(plain, { strict: true })
    ? getAddress(plain)
    : undefined;
};
const VITALIK = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

describe('normalizeEvmAddress', () => {
  it('checksums lowercase, keeps a valid checksum, refuses a wrong one and non-addresses', () => {
    const inputs = [
      CHECKSUMMED,
      CHECKSUMMED.toLowerCase(),
      `0x${CHECKSUMMED.slice(2).toUpperCase()}`,
      CHECKSUMMED.replace('E340', 'e340'),
      `0x${VITALIK.slice(2).toUpperCase()}`,
      `0X${VITALIK.slice(2)}`,
      '0x1234',
      `${CHECKSUMMED}0`,
      ` ${CHECKSUMMED}`,
      'not-an-address',
      '',
    ];
    // Twice: the second answer comes from the cache and must not differ.
    for (const round of [1, 2]) {
      for (const input of inputs) {
        expect({ round, input, out: normalizeEvmAddress(input) }).toEqual({
          round,
          input,
          out: viemAnswer(input),
        });
      }
    }
    expect(normalizeEvmAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED);
    expect(normalizeEvmAddress(CHECKSUMMED.replace('E340', 'e340'))).toBeUndefined();
    // Issue 41: an all-capitals address (no checksum, EIP-55) is the same wallet.
    expect(normalizeEvmAddress(`0x${VITALIK.slice(2).toUpperCase()}`)).toBe(VITALIK);
  });

  it('stays right past its bound', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    for (const address of many) expect(normalizeEvmAddress(address)).toBe(getAddress(address));
    expect(normalizeEvmAddress(many[0] as string)).toBe(getAddress(many[0] as string));
    expect(normalizeEvmAddress(CHECKSUMMED)).toBe(CHECKSUMMED);
  });
});
