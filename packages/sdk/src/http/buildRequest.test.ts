import { resolveClientConfig } from '../clientOptions';
import { clientRoute } from '../routes/clientRoute';
import { routeTable } from '../routes/routeTable';
import { buildRequest } from './buildRequest';

const config = resolveClientConfig({
  baseUrl: 'https://api.example.test/api/v1/',
  apiKey: 'key-1',
  userAgent: 'agent-7',
});

const route = (operationId: keyof typeof routeTable) =>
  clientRoute(operationId, routeTable[operationId]);

describe('buildRequest', () => {
  it('canonical path under the site root; trailing / and /api/v1 in baseUrl are tolerated', () => {
    expect(buildRequest(config, route('getStatus'), {}).url).toBe(
      'https://api.example.test/api/v1/svc/status',
    );
    expect(buildRequest(config, route('getHealth'), {}).url).toBe(
      'https://api.example.test/health',
    );
  });

  it('encodes path parameters and query values', () => {
    const position = buildRequest(config, route('getPosition'), { params: { address: 'a b/c' } });
    expect(position.url).toBe('https://api.example.test/api/v1/wallets/a%20b%2Fc/position');
    const venues = buildRequest(config, route('listVenues'), {
      query: { live: '1', chain: undefined },
    });
    expect(venues.url).toBe('https://api.example.test/api/v1/svc/venues?live=1');
  });

  it('refuses a missing path parameter before any request', () => {
    expect(() => buildRequest(config, route('getPosition'), {})).toThrow(
      'params.address is required',
    );
  });

  it('sends the key, the user agent, caller headers and a JSON body (bigint as string)', () => {
    const request = buildRequest(config, route('executeDeposit'), {
      body: { planId: 'plan_1', signedTransaction: 'AQID' },
      headers: { 'X-Trace': 't1' },
    });
    expect(request.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      'x-api-key': 'key-1',
      'user-agent': 'agent-7',
      'x-trace': 't1',
    });
    expect(request.body).toBe('{"planId":"plan_1","signedTransaction":"AQID"}');
    const plan = buildRequest(config, route('prepareDepositPlan'), {
      body: { strategyId: 'v', amountMicros: 5n },
    });
    expect(plan.body).toBe('{"strategyId":"v","amountMicros":"5"}');
  });

  it('GET is idempotent; a POST is idempotent once it carries an Idempotency-Key', () => {
    expect(buildRequest(config, route('getStatus'), {}).idempotent).toBe(true);
    // executeDeposit declares no Idempotency-Key: sent without one, it is not retry-safe.
    const withoutKey = buildRequest(config, route('executeDeposit'), {
      body: { planId: 'plan_1', signedTransaction: 'AQID' },
    });
    expect(withoutKey.idempotent).toBe(false);
    expect(withoutKey.headers).not.toHaveProperty('idempotency-key');
    const withKey = buildRequest(config, route('executeDeposit'), {
      headers: { 'Idempotency-Key': 'k' },
    });
    expect(withKey.idempotent).toBe(true);
    expect(withKey.headers['idempotency-key']).toBe('k');
  });

  it('a route that declares Idempotency-Key gets a generated one unless the caller gives one', () => {
    const generated = buildRequest(config, route('prepareDepositPlan'), {
      body: { strategyId: 'v', amountMicros: '5' },
    });
    expect(generated.idempotent).toBe(true);
    expect(generated.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const given = buildRequest(config, route('prepareWithdrawPlan'), { idempotencyKey: 'mine' });
    expect(given.idempotent).toBe(true);
    expect(given.headers['idempotency-key']).toBe('mine');
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => resolveClientConfig({ baseUrl: 'localhost:3000' })).toThrow('baseUrl');
  });
});
