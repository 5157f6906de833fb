import { isPublicAddress } from './isPublicAddress';
import { resolveWebhookUrl } from './resolveWebhookUrl';
import { validateWebhookUrl } from './validateWebhookUrl';

const STRICT = { allowInsecure: false, allowPrivate: false };
const DEV = { allowInsecure: true, allowPrivate: true };

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.1.2.3',
    '100.64.0.1',
    '100.100.100.200',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2002:7f00:1::1',
    'not-an-ip',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('validateWebhookUrl', () => {
  it.each([
    ['http://hooks.example.com/x', 'must use https'],
    ['ftp://hooks.example.com/x', 'must use https'],
    ['not a url', 'must be an absolute URL'],
    ['/relative/path', 'must be an absolute URL'],
    ['https://user:pass@hooks.example.com/', 'must not contain credentials'],
    ['https://127.0.0.1/', 'private'],
    ['https://0x7f.1/', 'private'],
    ['https://2130706433/', 'private'],
    ['https://017700000001/', 'private'],
    ['https://0.0.0.0/', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'private'],
    ['https://10.0.0.5:8443/', 'private'],
    ['https://100.64.1.1/', 'private'],
    ['https://[::1]/', 'private'],
    ['https://[::ffff:127.0.0.1]/', 'private'],
    ['https://[::ffff:7f00:1]/', 'private'],
    ['https://[fd00::1]/', 'private'],
    ['https://[fe80::1]/', 'private'],
    ['https://localhost/', 'local host name'],
    ['https://LOCALHOST./', 'local host name'],
    ['https://api.localhost/', 'local host name'],
    ['https://metadata.google.internal/', 'local host name'],
    ['https://metadata/', 'local host name'],
    ['https://printer.local/', 'local host name'],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, 'at most 2048'],
  ])('%s is refused (%s)', (url, reason) => {
    const result = validateWebhookUrl(url, STRICT);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('accepts public https targets', () => {
    expect(validateWebhookUrl('https://hooks.example.com/svc?x=1', STRICT)).toMatchObject({
      ok: true,
      host: 'hooks.example.com',
      isAddress: false,
    });
    expect(validateWebhookUrl('https://8.8.8.8:443/', STRICT)).toMatchObject({
      ok: true,
      isAddress: true,
    });
    // Other ports only when listed (issue 16: `https://1.1.1.1:22/` was accepted).
    expect(validateWebhookUrl('https://8.8.8.8:8443/', STRICT)).toMatchObject({ ok: false });
    expect(validateWebhookUrl('https://1.1.1.1:22/h', STRICT)).toMatchObject({ ok: false });
    expect(
      validateWebhookUrl('https://8.8.8.8:8443/', { ...STRICT, allowedPorts: [8443] }),
    ).toMatchObject({ ok: true });
    expect(validateWebhookUrl('https://[2606:4700:4700::1111]/', STRICT)).toMatchObject({
      ok: true,
      host: '2606:4700:4700::1111',
    });
  });

  it('development allows http and local receivers, never other schemes or credentials', () => {
    expect(validateWebhookUrl('http://127.0.0.1:4000/hooks', DEV).ok).toBe(true);
    expect(validateWebhookUrl('http://localhost:4000/hooks', DEV).ok).toBe(true);
    expect(validateWebhookUrl('file:///etc/passwd', DEV).ok).toBe(false);
    expect(validateWebhookUrl('http://a:b@127.0.0.1/', DEV).ok).toBe(false);
    // http alone does not open private targets.
    expect(
      validateWebhookUrl('http://127.0.0.1/', { allowInsecure: true, allowPrivate: false }).ok,
    ).toBe(false);
  });
});

describe('resolveWebhookUrl (DNS)', () => {
  const answer =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address }));

  it('refuses a name that resolves to any private address', async () => {
    const result = await resolveWebhookUrl('https://rebind.example.com/', {
      ...STRICT,
      lookup: answer('93.184.216.34', '127.0.0.1'),
    });
    expect(result).toEqual({
      ok: false,
      reason: 'host resolves to a private, loopback, link-local or reserved address',
    });
  });

  it('refuses a name that does not resolve, naming the resolver code', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(
      resolveWebhookUrl('https://nowhere.example.com/', { ...STRICT, lookup }),
    ).resolves.toEqual({ ok: false, reason: 'host does not resolve (ENOTFOUND)' });
    await expect(
      resolveWebhookUrl('https://nowhere.example.com/', { ...STRICT, lookup: answer() }),
    ).resolves.toEqual({ ok: false, reason: 'host does not resolve' });
  });

  it('accepts a name whose every address is public; literals and dev mode skip DNS', async () => {
    const lookup = jest.fn(answer('93.184.216.34', '2606:2800:220:1::1'));
    await expect(
      resolveWebhookUrl('https://hooks.example.com/', { ...STRICT, lookup }),
    ).resolves.toMatchObject({ ok: true });
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
    lookup.mockClear();
    await resolveWebhookUrl('https://8.8.8.8/', { ...STRICT, lookup });
    await resolveWebhookUrl('http://receiver.test/', { ...DEV, lookup });
    expect(lookup).not.toHaveBeenCalled();
  });

  it('still applies the literal checks first', async () => {
    const lookup = jest.fn(answer('8.8.8.8'));
    await expect(
      resolveWebhookUrl('https://localhost/', { ...STRICT, lookup }),
    ).resolves.toMatchObject({ ok: false });
    expect(lookup).not.toHaveBeenCalled();
  });
});
