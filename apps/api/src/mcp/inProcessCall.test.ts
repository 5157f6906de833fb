import request from 'supertest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ListeningTestApp } from '../testing/listenTestApp';
import { listenTestApp } from '../testing/listenTestApp';
import { TEST_WALLET, testKeys } from '../testing/startTestApp';
import { dispatchInProcess } from './dispatchInProcess';

// Tool calls of the API's own /mcp run the REST route in process: a 2xx answer comes back as
// the handler's object, never written as JSON and parsed again; errors keep their bytes.

let t: ListeningTestApp;
beforeAll(async () => {
  t = await listenTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The REST body, its read time aside (each read has its own). */
const sameRead = (body: Record<string, unknown>) => ({ ...body, asOf: expect.any(String) });

const inProcess = (url: string, headers: Record<string, string> = {}) =>
  dispatchInProcess(t.app, {
    method: 'GET',
    url,
    headers: { accept: 'application/json', ...headers },
    remoteAddress: '127.0.0.1',
  });

describe('an in-process call', () => {
  it('hands a 2xx body over as the object the REST route serves, with no bytes', async () => {
    const url = `/api/v1/wallets/${TEST_WALLET}/position`;
    const answered = await inProcess(url, { 'x-api-key': testKeys.owner });
    expect(answered.status).toBe(200);
    expect(answered.text).toBe('');
    const rest = await request(t.app).get(url).set('X-API-Key', testKeys.owner).expect(200);
    expect(JSON.parse(JSON.stringify(answered.answer?.body))).toEqual(sameRead(rest.body));
  });

  it('keeps an error answer as bytes (code, message, field)', async () => {
    const refused = await inProcess(`/api/v1/wallets/${TEST_WALLET}/position`);
    expect(refused.status).toBe(401);
    expect(refused.answer).toBeUndefined();
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('serves a tool call of /mcp with the REST body as structured content and text', async () => {
    const client = new Client({ name: 'in-process-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { 'X-API-Key': testKeys.owner } },
      }),
    );
    try {
      await client.listTools();
      const result = await client.callTool({
        name: 'getPosition',
        arguments: { address: TEST_WALLET },
      });
      expect(result.isError).toBeFalsy();
      const rest = await request(t.app)
        .get(`/api/v1/wallets/${TEST_WALLET}/position`)
        .set('X-API-Key', testKeys.owner)
        .expect(200);
      expect(result.structuredContent).toEqual(sameRead(rest.body));
      const [text] = result.content as { type: string; text: string }[];
      expect(JSON.parse(text?.text ?? '')).toEqual(sameRead(rest.body));
    } finally {
      await client.close();
    }
  });
});
