import { AutopilotState } from '@yieldrouter/schemas';
import { useAutopilotApp } from './testing/useAutopilotApp';

// The autopilot's refusals: bad input is a 4xx {code, message, field} and nothing is stored; an
// agent never changes the policy; a keeper only ticks.

const ap = useAutopilotApp(2);
const { keys } = ap;
const [wallet, other] = ap.wallets as [string, string];
const base = `/wallets/${wallet}/autopilot`;

const nothingStored = async () => {
  const state = AutopilotState.parse((await ap.api('get', base, keys.owner).expect(200)).body);
  expect(state.policy).toBeNull();
  expect(state.lastDecision).toBeNull();
  expect(await ap.t().db.autopilotDecision.count()).toBe(0);
};

describe('bad input: 4xx naming the field, nothing stored', () => {
  it.each([
    ['a Map chain', { chain: 'base' }, 400, 'BAD_REQUEST', 'body.chain'],
    ['arbitrum', { chain: 'arbitrum' }, 400, 'BAD_REQUEST', 'body.chain'],
    ['an unknown chain', { chain: 'dogecoin' }, 400, 'BAD_REQUEST', 'body.chain'],
    ['no chain on a first enable', {}, 400, 'BAD_REQUEST', 'body.chain'],
    [
      'a threshold above 10000',
      { chain: 'solana', rebalanceMinDeltaBps: 10_001 },
      400,
      'BAD_REQUEST',
      'body.rebalanceMinDeltaBps',
    ],
    [
      'a negative threshold',
      { chain: 'solana', rebalanceMinDeltaBps: -1 },
      400,
      'BAD_REQUEST',
      'body.rebalanceMinDeltaBps',
    ],
    [
      'a fractional threshold',
      { chain: 'solana', rebalanceMinDeltaBps: 700.5 },
      400,
      'BAD_REQUEST',
      'body.rebalanceMinDeltaBps',
    ],
    [
      'a threshold as a string',
      { chain: 'solana', rebalanceMinDeltaBps: '700' },
      400,
      'BAD_REQUEST',
      'body.rebalanceMinDeltaBps',
    ],
    [
      'an unknown cadence',
      { chain: 'solana', cadence: 'hourly' },
      400,
      'BAD_REQUEST',
      'body.cadence',
    ],
    ['an unknown goal', { chain: 'solana', goal: 'yolo' }, 400, 'BAD_REQUEST', 'body.goal'],
    [
      'an unknown opportunity',
      { chain: 'solana', venueAllowlist: ['kamino', 'nowhere'] },
      404,
      'strategy_unknown',
      'body.venueAllowlist[1]',
    ],
    [
      'an opportunity of another chain',
      { chain: 'solana', venueAllowlist: ['navi'] },
      400,
      'BAD_REQUEST',
      'body.venueAllowlist[0]',
    ],
    [
      'a repeated opportunity',
      { chain: 'solana', venueAllowlist: ['kamino', 'kamino'] },
      400,
      'BAD_REQUEST',
      'body.venueAllowlist',
    ],
    [
      'a field it does not know',
      { chain: 'solana', dryRun: true },
      400,
      'BAD_REQUEST',
      'body.dryRun',
    ],
    ['a wallet of another chain family', { chain: 'sui' }, 400, 'BAD_REQUEST', 'body.chain'],
  ])('enable with %s', async (_name, body, status, code, field) => {
    const refused = await ap.api('post', `${base}/enable`, keys.owner, body).expect(status);
    expect(refused.body).toMatchObject({ code, field });
    expect(typeof refused.body.message).toBe('string');
    await nothingStored();
  });

  it('preview of a Map chain or without a chain is refused the same way', async () => {
    for (const body of [{ chain: 'base' }, {}]) {
      const refused = await ap.api('post', `${base}/preview`, keys.agent, body).expect(400);
      expect(refused.body).toMatchObject({ code: 'BAD_REQUEST', field: 'body.chain' });
    }
    await nothingStored();
  });

  it('decide and tick take no fields', async () => {
    for (const route of ['decide', 'tick', 'disable']) {
      const refused = await ap
        .api('post', `${base}/${route}`, keys.owner, { chain: 'solana' })
        .expect(400);
      expect(refused.body.code).toBe('BAD_REQUEST');
    }
    await nothingStored();
  });

  it('a history cursor this API did not hand out, and a limit out of range', async () => {
    const cursor = await ap.api('get', `${base}/history?cursor=bm9wZQ`, keys.agent).expect(400);
    expect(cursor.body).toMatchObject({ code: 'BAD_REQUEST', field: 'query.cursor' });
    const limit = await ap.api('get', `${base}/history?limit=0`, keys.agent).expect(400);
    expect(limit.body).toMatchObject({ code: 'BAD_REQUEST', field: 'query.limit' });
  });
});

describe('without a policy', () => {
  it('decide and disable: 409 AUTOPILOT_NOT_CONFIGURED; tick too', async () => {
    for (const route of ['decide', 'disable', 'tick']) {
      const refused = await ap.api('post', `${base}/${route}`, keys.owner, {}).expect(409);
      expect(refused.body.code).toBe('AUTOPILOT_NOT_CONFIGURED');
    }
    await nothingStored();
  });
});

describe('who may call', () => {
  it('an agent key cannot enable or disable (403), and nothing is stored', async () => {
    for (const route of ['enable', 'disable']) {
      const refused = await ap
        .api('post', `${base}/${route}`, keys.agent, { chain: 'solana' })
        .expect(403);
      expect(refused.body.code).toBe('UNAUTHORIZED');
    }
    await nothingStored();
  });

  it('a keeper key may tick but not read, enable or preview', async () => {
    await ap.api('get', base, keys.keeper).expect(403);
    await ap.api('post', `${base}/enable`, keys.keeper, { chain: 'solana' }).expect(403);
    await ap.api('post', `${base}/preview`, keys.keeper, { chain: 'solana' }).expect(403);
    await nothingStored();
  });

  it('a wallet outside the key: 403 WALLET_SCOPE; no key: 401', async () => {
    const outside = '0x52908400098527886E0F7030069857D2E4169EE7';
    const refused = await ap
      .api('post', `/wallets/${outside}/autopilot/enable`, keys.owner, { chain: 'solana' })
      .expect(403);
    expect(refused.body.code).toBe('WALLET_SCOPE');
    await ap.api('get', base, 'unknown-key').expect(401);
    expect(other).not.toBe(wallet);
  });
});
