import fc from 'fast-check';
import type { FuzzRequest } from './fuzzRequest';
import { fuzzRequest } from './fuzzRequest';
import { KEY_SAMPLES, createKeyMaterialSearch } from './keyMaterial';
import type { Operation } from './operations';
import { checkOutcome, errorBodyProblem } from './oracle';
import { deeplyNested, toJsonText } from './rawJson';
import { FindingLog, toCurl } from './report';
import type { FuzzOutcome } from './sendRequest';
import type { JsonSchema } from './validValue';

const errorBody: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', enum: ['BAD_REQUEST', 'NOT_FOUND', 'NOT_IMPLEMENTED'] },
    message: { type: 'string' },
    requestId: { type: 'string' },
    field: { type: 'string' },
  },
  required: ['code', 'message', 'requestId'],
  additionalProperties: false,
};

const settle: Operation = {
  operationId: 'settlePlanLeg',
  method: 'POST',
  path: '/api/v1/svc/plans/{planId}/legs/{legIndex}/settle',
  aliases: ['/api/svc/plans/{planId}/legs/{legIndex}/settle'],
  auth: ['owner', 'keeper'],
  parameters: [
    { name: 'planId', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
    {
      name: 'legIndex',
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 0, maximum: 63 },
    },
  ],
  body: { type: 'object', properties: { txId: { type: 'string' } }, required: ['txId'] },
  successStatuses: new Set([200]),
  refusesKeyMaterial: false,
};
const status = {
  ...settle,
  method: 'GET',
  path: '/api/v1/svc/status',
  parameters: [],
  auth: ['public'],
} as Operation;
const { body: _none, ...statusWithoutBody } = status;

const options = { errorBody, findKeyMaterial: createKeyMaterialSearch() };
const request = (overrides: Partial<FuzzRequest> = {}): FuzzRequest => ({
  method: 'POST',
  target: '/api/v1/svc/plans/p/legs/0/settle',
  headers: {},
  identity: 'owner',
  shapes: [],
  ...overrides,
});
const answer = (code: number, body: unknown, requestId = 'req_1'): FuzzOutcome => ({
  kind: 'response',
  response: { status: code, headers: { 'x-request-id': requestId }, body: JSON.stringify(body) },
});
const error = { code: 'BAD_REQUEST', message: 'body.txId: required', requestId: 'req_1' };

describe('errorBodyProblem', () => {
  it('accepts the documented envelope, with or without field', () => {
    expect(errorBodyProblem(JSON.stringify(error), errorBody)).toBeUndefined();
    expect(
      errorBodyProblem(JSON.stringify({ ...error, field: 'body.txId' }), errorBody),
    ).toBeUndefined();
  });

  it.each([
    ['not JSON', 'oops'],
    ['missing message', JSON.stringify({ code: 'BAD_REQUEST', requestId: 'r' })],
    ['undocumented field stack', JSON.stringify({ ...error, stack: 'at x' })],
    ['unknown code TEAPOT', JSON.stringify({ ...error, code: 'TEAPOT' })],
    ['field is not a string', JSON.stringify({ ...error, field: 1 })],
  ])('names the problem: %s', (problem, body) => {
    expect(errorBodyProblem(body, errorBody)).toContain(problem.split(' ').slice(-1)[0]);
  });
});

describe('checkOutcome', () => {
  it('passes documented successes and 4xx with an ErrorBody, and 501', () => {
    expect(checkOutcome(settle, request(), answer(200, {}), options)).toBeUndefined();
    expect(checkOutcome(settle, request(), answer(400, error), options)).toBeUndefined();
    expect(
      checkOutcome(settle, request(), answer(501, { ...error, code: 'NOT_IMPLEMENTED' }), options),
    ).toBeUndefined();
  });

  it('fails 5xx, hangs, dropped connections, bare 4xx and undocumented statuses', () => {
    expect(
      checkOutcome(settle, request(), answer(500, { code: 'INTERNAL_ERROR' }), options)?.symptom,
    ).toBe('500 INTERNAL_ERROR');
    expect(checkOutcome(settle, request(), { kind: 'timeout', ms: 5000 }, options)?.symptom).toBe(
      'no answer (hang)',
    );
    expect(
      checkOutcome(
        settle,
        request(),
        { kind: 'connection error', message: 'socket hang up' },
        options,
      )?.symptom,
    ).toBe('connection dropped');
    expect(checkOutcome(settle, request(), answer(404, 'nope'), options)?.symptom).toBe(
      '404 without an ErrorBody',
    );
    expect(checkOutcome(settle, request(), answer(201, {}), options)?.symptom).toBe(
      'undocumented 201',
    );
  });

  it('lets node’s own HTTP parser answer (no request id) and HEAD answer without a body', () => {
    const bare: FuzzOutcome = {
      kind: 'response',
      response: { status: 431, headers: {}, body: '' },
    };
    expect(checkOutcome(settle, request(), bare, options)).toBeUndefined();
    expect(
      checkOutcome(status, request({ method: 'HEAD' }), answer(404, ''), options),
    ).toBeUndefined();
  });

  it('fails a success for key material in the body, or for a body the route does not take', () => {
    const withKey = request({ body: Buffer.from(toJsonText({ txId: KEY_SAMPLES.suiPrivateKey })) });
    expect(checkOutcome(settle, withKey, answer(200, {}), options)?.symptom).toBe(
      'key material in the body accepted (200)',
    );
    const named = request({ body: Buffer.from('{"txId":"x","privateKey":"y"}') });
    expect(checkOutcome(settle, named, answer(200, {}), options)?.detail).toContain(
      'key-named field',
    );
    const stray = request({ method: 'GET', body: Buffer.from('{"a":1}') });
    expect(checkOutcome(statusWithoutBody, stray, answer(200, {}), options)?.symptom).toBe(
      'body accepted by a route without a request body (200)',
    );
    // None, or `{}`, is what such a route documents that it accepts.
    const empty = request({ method: 'GET', body: Buffer.from(' {} ') });
    expect(checkOutcome(statusWithoutBody, empty, answer(200, {}), options)).toBeUndefined();
  });
});

describe('fuzzRequest and report', () => {
  const keys = { owner: 'test-owner-aaaaaaaaaaaaaaaa', keeper: 'test-keeper-bbbbbbbbbbbbbbbb' };
  const requests = fc.sample(fuzzRequest(settle, { keys, hints: { planId: ['plan_1'] } }), {
    seed: 16,
    numRuns: 400,
  });

  it('fills every path parameter and mostly sends a key of a role the route allows', () => {
    expect(requests.every((r) => !r.target.includes('{'))).toBe(true);
    const allowed = requests.filter((r) => r.identity === 'owner' || r.identity === 'keeper');
    expect(allowed.length).toBeGreaterThan(requests.length * 0.6);
  });

  it('includes bad percent-encoding, prototype names and long segments in paths', () => {
    const targets = requests.map((r) => r.target);
    expect(targets.some((t) => t.includes('%E0%A4%A'))).toBe(true);
    expect(targets.some((t) => t.includes('/__proto__/'))).toBe(true);
    expect(targets.some((t) => t.length > 10_000)).toBe(true);
  });

  it('well-formed requests have nothing odd about them', () => {
    const wellFormed = fc.sample(fuzzRequest(settle, { keys, hints: {}, wellFormed: true }), {
      seed: 16,
      numRuns: 50,
    });
    expect(wellFormed.every((r) => r.shapes.length === 0 && r.method === 'POST')).toBe(true);
  });

  it('never prints an API key in a reproducer', () => {
    const lines = requests.map(toCurl).join('\n');
    expect(lines).not.toContain(keys.owner);
    expect(lines).not.toContain(keys.keeper);
    expect(lines).toContain('$OWNER_KEY');
  });

  it('keeps the smallest request per symptom', () => {
    const log = new FindingLog();
    const finding = { operation: 'POST /x', symptom: '500', detail: '' };
    log.add({ ...finding, shape: 'big', request: request({ shapes: ['a', 'b'] }) });
    log.add({ ...finding, shape: 'small', request: request({ shapes: ['a'] }) });
    const [only] = log.list();
    expect([log.list().length, only?.count, only?.shape]).toEqual([1, 2, 'small']);
  });

  it('splices raw JSON, even 10 000 levels deep', () => {
    const text = toJsonText({ a: deeplyNested(10_000, 'array') });
    expect(text.startsWith('{"a":[[[')).toBe(true);
    expect(() => JSON.parse(text)).not.toThrow();
  });
});
