import type { z } from 'zod';
import { toJsonSchema } from './openapi';
import { AutoPayPostRequest } from './autoPay';
import { AutopilotEnableRequest } from './autopilot';
import { BridgePlanRequest } from './bridge';
import { CagePrepareRequest } from './cageRequests';
import { DepositPlanRequest, ExecuteRequest, WithdrawPlanRequest } from './planRequests';
import { GasSponsorRequest } from './swapRequests';

// Issue 41: each cross-field rule a request schema enforces (refine/superRefine) is stated in the
// document too. For bodies that differ only in which fields are present, the document's rules
// (required, anyOf, oneOf, allOf, if/then on a const, a refused property) and zod agree.
type Rules = {
  required?: string[];
  anyOf?: Rules[];
  oneOf?: Rules[];
  allOf?: Rules[];
  if?: { properties?: Record<string, { const?: unknown }>; required?: string[] };
  then?: Rules;
  properties?: Record<string, { not?: unknown; const?: unknown }>;
  dependentRequired?: Record<string, string[]>;
  dependentSchemas?: Record<string, Rules>;
};

/** Whether `body` meets the presence rules of `schema` (field values are not checked). */
function meetsRules(schema: Rules, body: Record<string, unknown>): boolean {
  if (!(schema.required ?? []).every((name) => name in body)) return false;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (property.not !== undefined && name in body) return false;
    if (property.const !== undefined && name in body && body[name] !== property.const) {
      return false;
    }
  }
  for (const [name, needs] of Object.entries(schema.dependentRequired ?? {})) {
    if (name in body && !needs.every((need) => need in body)) return false;
  }
  for (const [name, rule] of Object.entries(schema.dependentSchemas ?? {})) {
    if (name in body && !meetsRules(rule, body)) return false;
  }
  if (schema.anyOf && !schema.anyOf.some((rule) => meetsRules(rule, body))) return false;
  if (schema.oneOf && schema.oneOf.filter((rule) => meetsRules(rule, body)).length !== 1) {
    return false;
  }
  if (schema.allOf && !schema.allOf.every((rule) => meetsRules(rule, body))) return false;
  if (schema.if && schema.then) {
    const condition = schema.if;
    const holds =
      (condition.required ?? []).every((name) => name in body) &&
      Object.entries(condition.properties ?? {}).every(
        ([name, property]) => property.const === undefined || body[name] === property.const,
      );
    if (holds && !meetsRules(schema.then, body)) return false;
  }
  return true;
}

/** Every subset of `optional` added to `base`. */
function presenceCases(base: object, optional: Record<string, unknown>): Record<string, unknown>[] {
  const names = Object.keys(optional);
  return Array.from({ length: 2 ** names.length }, (_unused, mask) => ({
    ...base,
    ...Object.fromEntries(names.filter((_name, i) => mask & (1 << i)).map((n) => [n, optional[n]])),
  }));
}

const EVM = '0x52908400098527886e0f7030069857d2e4169ee7';
const PLAN = `plan_${'ab'.repeat(16)}`;

function expectAgreement(schema: z.ZodType, cases: readonly Record<string, unknown>[]): void {
  const rules = toJsonSchema(schema, 'input') as Rules;
  const disagreements = cases
    .map((body) => ({
      body,
      zod: schema.safeParse(body).success,
      document: meetsRules(rules, body),
    }))
    .filter(({ zod, document }) => zod !== document);
  expect(disagreements).toEqual([]);
}

it('deposit and withdraw plans: opportunityId or strategyId', () => {
  const optional = { opportunityId: 'morpho', strategyId: 'morpho' };
  expectAgreement(DepositPlanRequest, presenceCases({ amountMicros: '1' }, optional));
  expectAgreement(WithdrawPlanRequest, presenceCases({ amountMicros: '1' }, optional));
});

it('execute: planId or the alias shape, and signedTransaction or signedTx', () => {
  expectAgreement(
    ExecuteRequest,
    presenceCases(
      {},
      {
        planId: PLAN,
        strategyId: 'morpho',
        owner: EVM,
        amountMicros: '1',
        signedTransaction: '0x00',
        signedTx: '0x00',
      },
    ),
  );
});

it('gas sponsor: exactly one of planId or calls', () => {
  const rules = toJsonSchema(GasSponsorRequest, 'input') as Rules;
  expect(rules.oneOf?.map((rule) => rule.required)).toEqual([['calls'], ['planId']]);
  expectAgreement(
    GasSponsorRequest,
    presenceCases(
      { chain: 'base', owner: EVM },
      { planId: PLAN, calls: [{ to: EVM, data: '0x' }] },
    ),
  );
});

it('bridge plan: a source and a destination chain, by any of their names', () => {
  const optional = {
    sourceChain: 'base',
    srcChain: 'base',
    fromChain: 'base',
    destChain: 'arbitrum',
    dstChain: 'arbitrum',
    toChain: 'arbitrum',
  };
  const base = { amountMicros: '1', sourceAddress: EVM, destinationAddress: EVM };
  expectAgreement(BridgePlanRequest, presenceCases(base, optional));
});

it('cage prepare: the fields each kind requires and refuses', () => {
  const optional = { venue: EVM, fromVenue: EVM, toVenue: EVM, payee: EVM };
  for (const kind of ['ROUTE', 'EXIT', 'REBALANCE', 'HARVEST', 'COMPOUND', 'AUTOPAY']) {
    expectAgreement(
      CagePrepareRequest,
      presenceCases({ kind, wallet: EVM, amountMicros: '1' }, optional),
    );
  }
});

it('POST auto-pay: config fields need enabled, and enabled takes no run target', () => {
  const optional = {
    enabled: true,
    percentage: 10,
    dustMicros: '1',
    chain: 'sui',
    opportunityId: 'morpho',
  };
  expectAgreement(AutoPayPostRequest, presenceCases({}, optional));
});

it('autopilot enable: targetChain equals chain when both are sent', () => {
  const cases = ['sui', 'solana'].flatMap((chain) =>
    ['sui', 'solana'].flatMap((targetChain) => presenceCases({}, { chain, targetChain })),
  );
  expectAgreement(AutopilotEnableRequest, cases);
});
