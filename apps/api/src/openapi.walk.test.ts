// The OpenAPI walk (issue 41): the served document is the authority for machines, so a request
// built from it alone must never be refused for its shape. For every operation, path parameters,
// required query parameters and the body are built from their schemas (exampleValue: examples,
// enums, formats, patterns, bounds, the first oneOf branch), sent with a key of a role the
// operation allows (an owner key where owners may call it) scoped to the wallet the document's
// own address value names, and the answer must not be 400. Any other status is fine: 404 for an
// id that does not exist, 409/422 for state conflicts, 403 for a role, a blocked plan (200 with
// `status: "blocked"`), 501 for a declared route not landed — the document only promises that
// the request's shape is accepted.
import request from 'supertest';
import { buildOpenApiDocument, routeList } from '@yieldrouter/schemas';
import type { TestApp } from './testing/startTestApp';
import { startTestApp } from './testing/startTestApp';
import type { WalkSchema } from './testing/walk/exampleValue';
import { exampleValue } from './testing/walk/exampleValue';

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema: WalkSchema;
}
interface OperationObject {
  readonly operationId: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: {
    readonly required?: boolean;
    readonly content: Record<string, { schema: WalkSchema }>;
  };
  readonly 'x-auth': readonly string[];
}
type Document = { paths: Record<string, Record<string, OperationObject>> };

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** The value the document gives a path parameter of this name (the first operation's schema). */
function pathValue(document: Document, name: string): string {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
      if (parameter) return String(exampleValue(parameter.schema));
    }
  }
  throw new Error(`no path parameter ${name}`);
}

const keys = {
  owner: 'walk-owner-key-0123456789abcdef',
  agent: 'walk-agent-key-0123456789abcdef',
  keeper: 'walk-keeper-key-0123456789abcdef',
};

let t: TestApp;
let wallet: string;
let character: string;
beforeAll(async () => {
  // The wallet and character the walk will name, from the manifest's document (the served one
  // is the same; checked below), so the keys can scope exactly them.
  const local = buildOpenApiDocument(routeList) as unknown as Document;
  wallet = pathValue(local, 'address');
  character = pathValue(local, 'character_id');
  const scoped = { wallets: [wallet], characters: { [character]: wallet } };
  t = await startTestApp({
    SVC_RATE_LIMIT_KEYED: '10000000',
    SVC_RATE_LIMIT_PUBLIC: '10000000',
    SVC_API_KEYS: JSON.stringify([
      { key: keys.owner, role: 'owner', ...scoped },
      { key: keys.agent, role: 'agent', ...scoped },
      { key: keys.keeper, role: 'keeper', wallets: ['*'] },
    ]),
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('OpenAPI walk: a request built from the served document alone is never a 400', () => {
  it('every operation', async () => {
    const served = await request(t.app).get('/api/v1/openapi.json').expect(200);
    const document = served.body as Document;
    expect(pathValue(document, 'address')).toBe(wallet);
    expect(pathValue(document, 'character_id')).toBe(character);
    const refused: string[] = [];
    let walked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        walked++;
        const parameters = operation.parameters ?? [];
        const url = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
          const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
          if (!parameter) throw new Error(`${path}: {${name}} is not declared`);
          return encodeURIComponent(String(exampleValue(parameter.schema)));
        });
        const query = new URLSearchParams();
        const headers: Record<string, string> = {};
        for (const parameter of parameters) {
          if (!parameter.required || parameter.in === 'path') continue;
          const value = exampleValue(parameter.schema);
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          if (parameter.in === 'query') query.set(parameter.name, text);
          if (parameter.in === 'header') headers[parameter.name] = text;
        }
        const auth = operation['x-auth'];
        const role = auth.includes('public')
          ? undefined
          : (['owner', 'agent', 'keeper'] as const).find((candidate) => auth.includes(candidate));
        if (role) headers['X-API-Key'] = keys[role];
        const target = query.size > 0 ? `${url}?${query}` : url;
        let pending = request(t.app)[method](target).set(headers);
        const body = operation.requestBody;
        if (body?.required) {
          const schema = body.content['application/json']?.schema ?? {};
          pending = pending.send(exampleValue(schema) as object);
        }
        const res = await pending;
        if (res.status === 400) {
          refused.push(
            `${method.toUpperCase()} ${target} (${operation.operationId}): ` +
              JSON.stringify(res.body).slice(0, 400),
          );
        }
      }
    }
    expect(walked).toBe(routeList.length);
    expect(refused).toEqual([]);
  }, 240_000);
});
