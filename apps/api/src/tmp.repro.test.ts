import request from 'supertest';
import pino from 'pino';
import { startTestApp, testKeys } from './testing/startTestApp';
it('repro', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'error' }, { write: (l: string) => { lines.push(l); } });
  const t = await startTestApp({ SVC_VENUE_IDS: JSON.stringify({ morpho: { vault: '0x1111111111111111111111111111111111111111' } }) }, { logger });
  try {
    const put = await request(t.app).put('/api/v1/wallets/0x1111111111111111111111111111111111111111/auto-yield').set('X-API-Key', testKeys.owner).send({ enabled: true, maxStakeMicros: '5' });
    console.log('put', put.status, JSON.stringify(put.body));
    const res = await request(t.app).post('/api/v1/wallets/0x1111111111111111111111111111111111111111/route').set('X-API-Key', testKeys.owner).send({"amountMicros":"1000000","token":"USDC","stake":true,"chain":"base","preferredChains":["base","solana"],"goal":"max_yield","riskTolerance":"medium","autoCompound":true,"autoBridge":false});
    console.log(res.status, JSON.stringify(res.body), lines.join('\n').slice(0, 3000));
  } finally { await t.close(); }
});
