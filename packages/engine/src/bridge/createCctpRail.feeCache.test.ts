import { startIrisFake } from '@yieldrouter/chain-beds/bridges';
import type { IrisFake } from '@yieldrouter/chain-beds/bridges';
import type { BridgeRail } from './bridgeRail';
import { CctpSettingsSchema, parseCctpSettings } from './cctpSettings';
import { createCctpRail } from './createCctpRail';

// The rail's fee cache and its attestation-service gate, against the Iris-shaped fake (quotes
// and attestation reads touch no chain) on a clock the test moves.
const lane = { sourceChain: 'base', destChain: 'arbitrum' } as const;
const back = { sourceChain: 'arbitrum', destChain: 'base' } as const;
const CONTRACT = '0x1111111111111111111111111111111111111111';

let iris: IrisFake;
beforeAll(async () => {
  iris = await startIrisFake({ domains: [], fastFeeBps: 2 });
});
afterAll(() => iris.close());
afterEach(() => {
  iris.setMode('ok');
  iris.setRetryAfter('300');
});

function railAt(settings: Record<string, string> = {}) {
  let at = 1_700_000_000_000;
  const warnings: unknown[] = [];
  const rail: BridgeRail = createCctpRail({
    bridges: parseCctpSettings(
      CctpSettingsSchema.parse({
        SVC_CCTP_ATTESTATION_URL: iris.url,
        SVC_CCTP_TIMEOUT_MS: '1000',
        SVC_BASE_CCTP_TOKEN_MESSENGER: CONTRACT,
        SVC_BASE_CCTP_MESSAGE_TRANSMITTER: CONTRACT,
        SVC_ARBITRUM_CCTP_TOKEN_MESSENGER: CONTRACT,
        SVC_ARBITRUM_CCTP_MESSAGE_TRANSMITTER: CONTRACT,
        ...settings,
      }),
    ),
    chains: {
      timeoutMs: 1000,
      sui: { rpcUrl: undefined, network: 'localnet', usdc: '0x2::usdc::USDC' },
      solana: {
        rpcUrl: undefined,
        network: 'localnet',
        usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      },
      base: { rpcUrl: 'http://127.0.0.1:9', usdc: CONTRACT },
      arbitrum: { rpcUrl: 'http://127.0.0.1:9', usdc: CONTRACT },
    },
    logger: { warn: (...args: unknown[]) => void warnings.push(args) },
    now: () => at,
  });
  return { rail, warnings, advance: (ms: number) => (at += ms), now: () => at };
}

const fees = () => iris.counts().fees;

describe('the CCTP rail fee cache (SVC_CCTP_FEE_TTL_MS)', () => {
  it('defaults to 30 s and 15 requests per second', () => {
    expect(parseCctpSettings(CctpSettingsSchema.parse({}))).toMatchObject({
      feeTtlMs: 30_000,
      maxRequestsPerSecond: 15,
    });
    expect(CctpSettingsSchema.safeParse({ SVC_CCTP_MAX_REQUESTS_PER_SECOND: '36' }).success).toBe(
      false,
    );
    expect(CctpSettingsSchema.safeParse({ SVC_CCTP_FEE_TTL_MS: '-1' }).success).toBe(false);
  });

  it('one fee request serves many plans of both speeds on a lane within the TTL', async () => {
    const { rail } = railAt();
    const before = fees();
    for (let plan = 0; plan < 20; plan += 1) {
      expect(await rail.quote(lane, 10_000_000n, plan % 2 ? 'fast' : 'standard')).toMatchObject({
        status: 'ok',
        railFeeMicros: plan % 2 ? 2_000n : 0n,
      });
    }
    expect(fees() - before).toBe(1);
    // Another lane is its own entry.
    expect(await rail.quote(back, 10_000_000n, 'standard')).toMatchObject({ status: 'ok' });
    expect(fees() - before).toBe(2);
  });

  it('reads again once the TTL has passed', async () => {
    const { rail, advance } = railAt({ SVC_CCTP_FEE_TTL_MS: '10000' });
    const before = fees();
    await rail.quote(lane, 10_000_000n, 'standard');
    advance(9_999);
    await rail.quote(lane, 10_000_000n, 'fast');
    expect(fees() - before).toBe(1);
    advance(1);
    await rail.quote(lane, 10_000_000n, 'fast');
    expect(fees() - before).toBe(2);
  });

  it('concurrent misses share one request; TTL 0 reads for every plan', async () => {
    const { rail } = railAt();
    const before = fees();
    const quotes = await Promise.all(
      Array.from({ length: 8 }, () => rail.quote(lane, 10_000_000n, 'standard')),
    );
    expect(quotes.every((quote) => quote.status === 'ok')).toBe(true);
    expect(fees() - before).toBe(1);
    const every = railAt({ SVC_CCTP_FEE_TTL_MS: '0' }).rail;
    await every.quote(lane, 10_000_000n, 'standard');
    await every.quote(lane, 10_000_000n, 'standard');
    expect(fees() - before).toBe(3);
  });

  it('a failed read is not kept: the next plan asks again', async () => {
    const { rail } = railAt();
    const before = fees();
    iris.setMode('http_503');
    expect(await rail.quote(lane, 10_000_000n, 'standard')).toEqual({
      status: 'unavailable',
      detail: 'the fee endpoint answered 503',
    });
    iris.setMode('ok');
    expect(await rail.quote(lane, 10_000_000n, 'standard')).toMatchObject({ status: 'ok' });
    expect(await rail.quote(lane, 10_000_000n, 'standard')).toMatchObject({ status: 'ok' });
    expect(fees() - before).toBe(2);
  });
});

describe('the CCTP rail attestation-service gate', () => {
  it('past the per-second budget a quote fails closed saying the budget is spent', async () => {
    // A one-request budget and no cache: the second plan's slot is a second away, past its
    // 100 ms timeout.
    const { rail } = railAt({
      SVC_CCTP_FEE_TTL_MS: '0',
      SVC_CCTP_MAX_REQUESTS_PER_SECOND: '1',
      SVC_CCTP_TIMEOUT_MS: '100',
    });
    const before = fees();
    const [first, second] = await Promise.all([
      rail.quote(lane, 10_000_000n, 'standard'),
      rail.quote(lane, 10_000_000n, 'standard'),
    ]);
    expect(first).toMatchObject({ status: 'ok' });
    expect(second).toEqual({
      status: 'unavailable',
      detail:
        'the attestation service request budget is spent (1 requests per second in this process): no slot within 100 ms',
    });
    expect(fees() - before).toBe(1);
  });

  it('a 429 holds fees and attestations off until Retry-After, logged once; then they resume', async () => {
    const { rail, warnings, advance, now } = railAt();
    iris.setMode('rate_limited');
    iris.setRetryAfter('60');
    const until = new Date(now() + 60_000).toISOString();
    const before = iris.counts().all;
    const blocked = await rail.quote(lane, 10_000_000n, 'standard');
    expect(blocked).toEqual({
      status: 'unavailable',
      detail: `the attestation service answered 429 (rate limited): no request to it until ${until}`,
    });
    iris.setMode('ok');
    expect(await rail.quote(back, 10_000_000n, 'fast')).toEqual(blocked);
    // Not asked, and marked so: the bridge expiry waits for a real answer.
    expect(await rail.readAttestation(lane, `0x${'ab'.repeat(32)}`)).toEqual({
      ...blocked,
      notAsked: true,
    });
    expect(iris.counts().all - before).toBe(1);
    expect(warnings).toEqual([
      [
        { until, retryAfter: '60' },
        'the attestation service answered 429: every request to it is held off until then',
      ],
    ]);
    advance(60_000);
    expect(await rail.quote(lane, 10_000_000n, 'standard')).toMatchObject({ status: 'ok' });
    expect(await rail.readAttestation(lane, `0x${'ab'.repeat(32)}`)).toMatchObject({
      status: 'unavailable',
      detail: 'the attestation service answered 400',
    });
    expect(iris.counts().all - before).toBe(3);
  });
});
