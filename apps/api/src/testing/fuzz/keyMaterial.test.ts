import fc from 'fast-check';
import { findRefusal } from '../../http/requestGuard';
import { SAMPLE_ADDRESSES, TEST_WALLET } from '../startTestApp';
import { KEY_SAMPLES, createKeyMaterialSearch, mnemonicVariant } from './keyMaterial';
import { toJsonText } from './rawJson';

const search = createKeyMaterialSearch(['test-owner-0123456789abcdef']);

describe('key samples', () => {
  it.each(Object.entries(KEY_SAMPLES))(
    '%s looks like a key to the API’s own detector',
    (_name, sample) => {
      expect(findRefusal({ value: sample }, 'body')?.code).toBe('KEY_MATERIAL_REFUSED');
    },
  );
});

describe('createKeyMaterialSearch', () => {
  it('does not count a Sui-address-shaped 0x + 64 hex (the API keeps it where addresses belong)', () => {
    expect(search(`/api/v1/wallets/${KEY_SAMPLES.hex64Prefixed}/position`)).toEqual([]);
  });

  const searched = Object.entries(KEY_SAMPLES).filter(([name]) => name !== 'hex64Prefixed');
  it.each(searched)('finds %s inside a JSON log line', (_name, sample) => {
    const line = toJsonText({ level: 30, msg: 'request', path: `/api/v1/x/${sample}/y` });
    expect(search(line).length).toBeGreaterThan(0);
  });

  it('finds a part of a sample (a truncated or sliced secret)', () => {
    expect(search(`txId=${KEY_SAMPLES.hex64.slice(20, 44)}`)).toEqual(['hex64']);
    expect(search(KEY_SAMPLES.solanaBase58.slice(30, 60))).toEqual(['solanaBase58']);
    expect(search(`x ${KEY_SAMPLES.suiPrivateKey.slice(-20)}`)).toEqual(['suiPrivateKey']);
  });

  it('finds the phrase in any case and with any separator', () => {
    fc.assert(
      fc.property(mnemonicVariant, (phrase) => {
        expect(search(toJsonText({ msg: phrase }))).toEqual(['mnemonic']);
      }),
    );
  });

  it('finds the extra secrets verbatim', () => {
    expect(search('{"key":"test-owner-0123456789abcdef"}')).toEqual(['api key']);
  });

  it('does not flag ordinary log lines', () => {
    const line = toJsonText({
      level: 30,
      service: 'api',
      requestId: 'req_6f1c2b7e-8a9d-4c3e-b2f1-0a9e8d7c6b5a',
      method: 'GET',
      path: `/api/v1/wallets/${TEST_WALLET}/position`,
      addresses: Object.values(SAMPLE_ADDRESSES),
      msg: 'request',
    });
    expect(search(line)).toEqual([]);
  });
});
