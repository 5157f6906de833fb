import { toolCatalog } from './toolCatalog';

// Issue 44: the MCP tools that answer a plan describe its simulation; the plan read also its
// divergences (the output schemas come from the manifest's plan documents).
const outputOf = (name: string) =>
  JSON.stringify(toolCatalog().find((tool) => tool.name === name)?.outputSchema ?? null);

it('plan tools describe the simulation, and the stored plan its divergences', () => {
  expect(outputOf('getPlan')).toContain('"simulation"');
  expect(outputOf('getPlan')).toContain('"divergences"');
  expect(outputOf('prepareDepositPlan')).toContain('"simulation"');
});

it('every EVM plan kind that prepares legs describes its simulation, with approvals and calls', () => {
  for (const name of [
    'prepareEvmSwapPlan',
    'prepareBridgePlan',
    'prepareGasSponsorPlan',
    'autoPay',
    'prepareWithdrawPlan',
  ]) {
    const output = outputOf(name);
    expect({ name, simulation: output.includes('"simulation"') }).toEqual({
      name,
      simulation: true,
    });
    expect(output).toContain('"approvals"');
    expect(output).toContain('"calls"');
  }
});
