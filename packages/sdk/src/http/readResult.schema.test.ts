import { createClient } from '../createClient';
import { SchemaMismatchError } from '../errors/SchemaMismatchError';
import type { ScriptedReply, ScriptedServer } from '../testing/scriptedServer';
import { startScriptedServer } from '../testing/scriptedServer';

let server: ScriptedServer;
const serve = async (reply: ScriptedReply, validateResponses = true) => {
  server = await startScriptedServer([reply]);
  return createClient({ baseUrl: server.url, retries: 0, validateResponses });
};
afterEach(() => server.close());

const wrongEnablement = {
  schemaVersion: 'svc-enablement.v1',
  chains: [{ chain: 'sui', home: 'executable', label: 'Runnable' }],
};

describe('response validation against the route schema', () => {
  it('a wrong shape throws SchemaMismatchError naming the field path', async () => {
    const client = await serve({ status: 200, body: wrongEnablement });
    const error = await client.getEnablement().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SchemaMismatchError);
    const mismatch = error as SchemaMismatchError;
    expect(mismatch).toMatchObject({
      status: 200,
      code: 'SCHEMA_MISMATCH',
      operationId: 'getEnablement',
      field: 'chains.0.label',
      requestId: 'req_scripted_1',
    });
    expect(mismatch.message).toContain("field 'chains.0.label'");
    expect(mismatch.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['chains.0.executionEnabled', 'chains.0.reasons']),
    );
  });

  it('a wrong type at the top level names that field', async () => {
    const client = await serve({
      status: 200,
      body: { packageName: 42, published: false, version: null, apiVersion: '1.0.0' },
    });
    await expect(client.getSdk()).rejects.toMatchObject({
      name: 'SchemaMismatchError',
      field: 'packageName',
    });
  });

  it('a body that is not JSON is a mismatch of the body', async () => {
    server = await startScriptedServer([{ status: 200 }]);
    const client = createClient({ baseUrl: server.url });
    await expect(client.getSdk()).rejects.toBeInstanceOf(SchemaMismatchError);
  });

  it('a status the route does not declare is a mismatch', async () => {
    const client = await serve({ status: 202, body: {} });
    await expect(client.getSdk()).rejects.toMatchObject({
      name: 'SchemaMismatchError',
      status: 202,
    });
  });

  it('validateResponses: false returns the body as sent', async () => {
    const client = await serve({ status: 200, body: wrongEnablement }, false);
    await expect(client.getEnablement()).resolves.toEqual(wrongEnablement);
  });
});
