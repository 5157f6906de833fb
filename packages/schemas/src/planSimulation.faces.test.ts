import { buildOpenApiDocument } from './openapi';
import { routeList } from './manifest/allRoutes';
import { PlanSimulation } from './planSimulation';

// Issue 44: the plan's `simulation`, the stored plan's `divergences` and the `plan.divergence`
// event are described where clients read the API: the OpenAPI document (the SDK's types and the
// MCP tools' output schemas come from the same manifest schemas).
const document = JSON.stringify(buildOpenApiDocument(routeList));
const parsed = JSON.parse(document) as {
  webhooks: Record<string, Record<string, { operationId?: string }>>;
};

it('describes the simulation on plans and the divergences on the stored plan', () => {
  expect(document).toContain('"simulation"');
  expect(document).toContain('"divergences"');
  expect(document).toContain('"simulationDigest"');
  expect(document).toContain('eth_simulateV1');
  // Approvals (allowance changes), the contracts called, the new findings and a swap's bound.
  for (const field of ['"approvals"', '"allowance"', '"calls"', '"tolerance"', '"payee"']) {
    expect(document).toContain(field);
  }
  for (const code of ['approval_foreign_spender', 'approval_beyond_amount']) {
    expect(document).toContain(code);
  }
});

it('has a webhook operation for plan.divergence and plan.simulated', () => {
  const operations = Object.values(parsed.webhooks).flatMap((item) => Object.values(item));
  expect(operations.map((operation) => operation.operationId)).toContain('onPlanDivergence');
  expect(operations.map((operation) => operation.operationId)).toContain('onPlanSimulated');
});

it('describes a deferred leg (Solana, Sui: simulated once the leg before it settled)', () => {
  for (const field of ['"deferred"', '"waitsFor"', '"afterLegIndex"']) {
    expect(document).toContain(field);
  }
});

it('a simulation is simulated with a digest, or unavailable with a reason: nothing in between', () => {
  expect(
    PlanSimulation.safeParse({ status: 'unavailable', reason: 'rpc_timeout', detail: 'slow' })
      .success,
  ).toBe(true);
  expect(PlanSimulation.safeParse({ status: 'unavailable', detail: 'no reason' }).success).toBe(
    false,
  );
  expect(
    PlanSimulation.safeParse({
      status: 'simulated',
      chain: 'base',
      method: 'eth_simulateV1',
      block: '1',
      legs: [],
      findings: [],
    }).success,
  ).toBe(false);
});
