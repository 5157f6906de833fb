import fc from 'fast-check';
import type { z } from 'zod';
import { buildOpenApiDocument, canonicalPath, routeList } from '@yieldrouter/schemas';
import { mutatedValue } from './mutatedValue';
import type { OpenApiDocument } from './operations';
import { operationsOf } from './operations';
import { toJsonText } from './rawJson';
import type { JsonSchema } from './validValue';
import { asciiStringOfLength, validValue } from './validValue';

const document = buildOpenApiDocument(routeList) as unknown as OpenApiDocument;
const operations = operationsOf(document);
const roundTrip = (value: unknown): unknown => JSON.parse(toJsonText(value));

/** Each manifest body with the JSON Schema the document publishes for it. */
const bodies = routeList.flatMap((route) => {
  const operation = operations.find(
    (o) => o.method === route.method.toUpperCase() && o.path === canonicalPath(route),
  );
  return route.request.body && operation?.body
    ? [[route.operationId, operation.body, route.request.body] as const]
    : [];
});

describe('validValue', () => {
  it('finds request bodies in the document', () => {
    expect(bodies.length).toBeGreaterThan(20);
  });

  // Refinements (`amountMicros` > 0, …) have no JSON Schema form: only their `custom` issues may remain.
  it.each(bodies)('%s: generated bodies pass the route’s own zod schema', (_id, schema, zod) => {
    fc.assert(
      fc.property(validValue(schema), (value) => {
        const parsed = (zod as z.ZodType).safeParse(roundTrip(value));
        const issues = parsed.error?.issues.filter((issue) => issue.code !== 'custom') ?? [];
        if (issues.length > 0) throw new Error(`${toJsonText(value)}: ${JSON.stringify(issues)}`);
      }),
      { numRuns: 40, seed: 16 },
    );
  });

  it('keeps to enum, pattern, length and numeric bounds', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        chain: { type: 'string', enum: ['sui', 'solana'] },
        id: { type: 'string', pattern: '^whk_[0-9a-f]{32}$' },
        note: { type: 'string', minLength: 2, maxLength: 5 },
        count: { type: 'integer', minimum: 1, maximum: 3 },
        tags: { type: 'array', items: { type: 'boolean' }, minItems: 1, maxItems: 2 },
      },
      required: ['chain', 'id', 'note', 'count', 'tags'],
      additionalProperties: false,
    };
    fc.assert(
      fc.property(validValue(schema), (value) => {
        const v = value as Record<string, unknown>;
        expect(Object.keys(v).sort()).toEqual(['chain', 'count', 'id', 'note', 'tags']);
        expect(['sui', 'solana']).toContain(v['chain']);
        expect(v['id']).toMatch(/^whk_[0-9a-f]{32}$/);
        expect((v['note'] as string).length).toBeGreaterThanOrEqual(2);
        expect((v['note'] as string).length).toBeLessThanOrEqual(5);
        expect([1, 2, 3]).toContain(v['count']);
        expect((v['tags'] as unknown[]).length).toBeGreaterThanOrEqual(1);
        expect((v['tags'] as unknown[]).length).toBeLessThanOrEqual(2);
      }),
      { seed: 16 },
    );
  });

  it('draws the longest allowed string at its exact length, short or long, in U+0000–U+007F', () => {
    for (const length of [5, 262_144]) {
      const samples = fc.sample(asciiStringOfLength(length), { seed: 16, numRuns: 8 });
      for (const sample of samples) {
        expect(sample).toHaveLength(length);
        expect(sample).toMatch(/^[\u0000-\u007f]*$/);
      }
      expect(new Set(samples).size).toBeGreaterThan(1);
    }
    const [long] = fc.sample(asciiStringOfLength(262_144), { seed: 16, numRuns: 1 });
    // Every character of the alphabet occurs (not one repeated chunk), NUL included.
    expect(new Set(long).size).toBe(128);
  });

  it('prefers hinted values for named leaf fields, never for arrays', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        wallet: { type: 'string' },
        wallets: { type: 'array', items: { type: 'string' } },
      },
      required: ['wallet', 'wallets'],
    };
    const samples = fc.sample(
      validValue(schema, { hints: { wallet: ['0xabc'], wallets: ['0xdef'] } }),
      {
        seed: 16,
        numRuns: 60,
      },
    ) as Array<{ wallet: string; wallets: string[] }>;
    expect(samples.filter((s) => s.wallet === '0xabc').length).toBeGreaterThan(30);
    expect(samples.every((s) => Array.isArray(s.wallets))).toBe(true);
    expect(samples.some((s) => s.wallets.includes('0xdef'))).toBe(true);
  });
});

/**
 * Shapes that break the schema itself (others may not: key material in a free string, or nested
 * objects where extra fields are allowed).
 */
const SCHEMA_BREAKS =
  /wrong type|missing required|longer than maxLength|does not match pattern|below minimum|above maximum|more than maxItems|empty array|levels of nested arrays|array of 10 000/;

describe('mutatedValue', () => {
  it.each(bodies)(
    '%s: schema-breaking mutations fail the route’s zod schema',
    (_id, schema, zod) => {
      fc.assert(
        fc.property(mutatedValue(schema, { at: 'body' }), ({ value, shape }) => {
          fc.pre(SCHEMA_BREAKS.test(shape));
          const parsed = (zod as z.ZodType).safeParse(roundTrip(value));
          if (parsed.success)
            throw new Error(`${shape} parsed: ${toJsonText(value).slice(0, 200)}`);
        }),
        { numRuns: 60, seed: 16 },
      );
    },
  );

  it('labels every mutation with where it is and what it breaks', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { txId: { type: 'string', minLength: 1, maxLength: 256 } },
      required: ['txId'],
      additionalProperties: false,
    };
    const shapes = new Set(
      fc
        .sample(mutatedValue(schema, { at: 'body' }), { seed: 16, numRuns: 2000 })
        .map((m) => m.shape),
    );
    for (const expected of [
      'body.txId: NUL byte',
      'body.txId: lone surrogate',
      'body.txId: longer than maxLength 256',
      'body: missing required txId',
      'body: prototype key __proto__',
      'body.txId: key material',
      'body: 10 000 levels of nested arrays',
    ]) {
      expect(shapes).toContain(expected);
    }
    expect([...shapes].some((shape) => shape.startsWith('body: key-named field'))).toBe(true);
  });

  it('writes __proto__ as an own JSON key, not as the prototype', () => {
    const [mutation] = fc
      .sample(mutatedValue({ type: 'object', properties: {} }, { at: 'body' }), {
        seed: 16,
        numRuns: 500,
      })
      .filter((m) => m.shape === 'body: prototype key __proto__');
    expect(toJsonText(mutation?.value)).toContain('"__proto__":');
  });
});
