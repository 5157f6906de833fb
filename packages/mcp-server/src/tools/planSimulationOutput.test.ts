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
