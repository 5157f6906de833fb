import { getAddress, isAddress } from 'viem';
import { normalizeEvmAddress } from './normalizeEvmAddress';

const CHECKSUMMED = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const viemAnswer = (address: string) =>
  isAddress(address, { strict: true }) ? getAddress(address) : undefined;

describe('normalizeEvmAddress', () => {
  it('checksums lowercase, keeps a valid checksum, refuses a wrong one and non-addresses', () => {
    const inputs = [
      CHECKSUMMED,
      CHECKSUMMED.toLowerCase(),
      `0x${CHECKSUMMED.slice(2).toUpperCase()}`,
      CHECKSUMMED.replace('E340', 'e340'),
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
  });

  it('stays right past its bound', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    for (const address of many) expect(normalizeEvmAddress(address)).toBe(getAddress(address));
    expect(normalizeEvmAddress(many[0] as string)).toBe(getAddress(many[0] as string));
    expect(normalizeEvmAddress(CHECKSUMMED)).toBe(CHECKSUMMED);
  });
});
