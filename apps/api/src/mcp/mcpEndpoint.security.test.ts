import request from 'supertest';
import type { TestApp } from '../testing/startTestApp';
import { startTestApp, testKeys } from '../testing/startTestApp';

// The MCP server's modules fail to load once (the first request), then load: see the first test.
let mcpServerLoads = 0;
jest.mock('@yieldrouter/mcp-server', () => {
  mcpServerLoads += 1;
  if (mcpServerLoads === 1) throw new Error('EMFILE: too many open files (a failed load)');
  return jest.requireActual('@yieldrouter/mcp-server');
});

// /mcp: the key is authenticated like on the REST routes, and a session stays with its key.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const ACCEPT = 'application/json, text/event-stream';
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'security-test', version: '0' },
  },
};

const post = (body: object, headers: Record<string, string> = {}) =>
  request(t.app).post('/mcp').set('Accept', ACCEPT).set(headers).send(body);

describe('/mcp', () => {
  // First in the file: the first request to /mcp is the one whose load fails.
  it('a failed load of the MCP server is not kept: the next request loads it again', async () => {
    const failed = await post(initialize);
    expect(failed.status).toBe(500);
    expect(JSON.stringify(failed.body)).not.toMatch(/EMFILE/);
    const opened = await post(initialize).expect(200);
    expect(String(opened.headers['mcp-session-id'])).toMatch(/^[0-9a-f-]{36}$/);
    expect(mcpServerLoads).toBe(2);
  });

  it('an unknown key is refused 401 INVALID_API_KEY before any session opens', async () => {
    const response = await post(initialize, { 'X-API-Key': 'not-a-key-0000000000' }).expect(401);
    expect(response.body.code).toBe('INVALID_API_KEY');
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  it('a request without a session must be an initialize', async () => {
    const response = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).expect(400);
    expect(response.body.error.message).toMatch(/initialize/);
  });

  it('a session opened with one key refuses another key, and an unknown session is 404', async () => {
    const opened = await post(initialize, { 'X-API-Key': testKeys.agent }).expect(200);
    const session = String(opened.headers['mcp-session-id']);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
    const stolen = await post(list, {
      'Mcp-Session-Id': session,
      'Mcp-Protocol-Version': '2025-06-18',
      'X-API-Key': testKeys.owner,
    }).expect(403);
    expect(stolen.body.code).toBe('UNAUTHORIZED');
    const keyless = await post(list, { 'Mcp-Session-Id': session }).expect(403);
    expect(keyless.body.code).toBe('UNAUTHORIZED');
    await post(list, { 'Mcp-Session-Id': 'no-such-session' }).expect(404);
  });
});
