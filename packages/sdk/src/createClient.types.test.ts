import { expectTypeOf } from 'expect-type';
import type {
  ChainEnablement,
  HealthDocument,
  ClientOperationId as OperationId,
  StatusDocument,
  WalletBalanceDocument,
} from '@yieldrouter/schemas';
import { createClient } from './createClient';
import type { OperationParameters, OperationResult, YieldRouterClient } from './operationTypes';
import { isBlockedPlan } from './plans/isBlockedPlan';
import type { PlanDivergence, PlanSimulation } from './index';

// Checked by `tsc` (pnpm typecheck); the jest run only proves the file loads.
describe('types', () => {
  it('no operation resolves to unknown or any', () => {
    type Untyped = {
      [Id in OperationId]: unknown extends OperationResult<Id> ? Id : never;
    }[OperationId];
    expectTypeOf<Untyped>().toBeNever();
    expectTypeOf<OperationResult<'getStatus'>>().not.toBeUnknown();
    expectTypeOf<OperationResult<'getStatus'>>().not.toBeAny();
  });

  it('results are the zod output of the route response schema', () => {
    expectTypeOf<OperationResult<'getStatus'>>().toEqualTypeOf<StatusDocument>();
    expectTypeOf<OperationResult<'getHealth'>>().toEqualTypeOf<HealthDocument>();
    expectTypeOf<OperationResult<'getBaseEnablement'>>().toEqualTypeOf<ChainEnablement>();
    expectTypeOf<
      OperationResult<'getSolanaWalletBalance'>
    >().toEqualTypeOf<WalletBalanceDocument>();
    expectTypeOf<YieldRouterClient['getStatus']>().returns.resolves.toEqualTypeOf<StatusDocument>();
  });

  it('plans carry their simulation; the stored plan its divergences (issue 44)', () => {
    expectTypeOf<OperationResult<'prepareDepositPlan'>['simulation']>().toEqualTypeOf<
      PlanSimulation | undefined
    >();
    expectTypeOf<OperationResult<'getPlan'>['divergences']>().toEqualTypeOf<
      PlanDivergence[] | undefined
    >();
  });

  it('parameters come from the request schemas (input side)', () => {
    expectTypeOf<OperationParameters<'getSolanaWalletBalance'>['query']>().toEqualTypeOf<{
      address: string;
    }>();
    // Amounts are integer strings on the way in (the schema's input side; a safe-integer number
    // is taken too), bigint inside the API.
    type DepositBody = OperationParameters<'prepareDepositPlan'>['body'];
    expectTypeOf<DepositBody['amountMicros']>().toEqualTypeOf<string | number>();
    expectTypeOf<OperationParameters<'routeFunds'>>().toHaveProperty('idempotencyKey');
    expectTypeOf<OperationParameters<'getStatus'>>().not.toHaveProperty('idempotencyKey');
  });

  it('methods need an argument only when the route has required input', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1' });
    expectTypeOf(client.getStatus)
      .parameter(0)
      .toEqualTypeOf<OperationParameters<'getStatus'> | undefined>();
    // @ts-expect-error the query with the address is required
    expectTypeOf(client.getSuiWalletBalance).toBeCallableWith();
    expectTypeOf(client.getSuiWalletBalance).toBeCallableWith({ query: { address: '0x1' } });
    // @ts-expect-error unknown query fields are rejected
    expectTypeOf(client.getSuiWalletBalance).toBeCallableWith({ query: { wallet: '0x1' } });
    expect(typeof client.getStatus).toBe('function');
  });

  it('plans carry typed blockers', () => {
    type Plan = OperationResult<'prepareDepositPlan'>;
    expectTypeOf<Plan['status']>().toEqualTypeOf<'prepared' | 'blocked'>();
    const narrow = (plan: Plan) => (isBlockedPlan(plan) ? plan.blockers[0]?.code : undefined);
    expectTypeOf(narrow).returns.toEqualTypeOf<
      NonNullable<Plan['blockers']>[number]['code'] | undefined
    >();
  });
});
