import { clientRoutes } from '@yieldrouter/schemas';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { CORE_TOOLS } from './coreToolset';
import { EXCLUDED_OPERATIONS } from './excludedOperations';
import { audienceMayCall, toolCatalog, toolsFor } from './toolCatalog';

const deprecated = (operationId: string) =>
  (clientRoutes as Record<string, RouteDefinition>)[operationId]?.deprecated === true;

// Every client operation of the manifest is a tool or a stated exclusion: a route added
// without either fails here, and the snapshot shows what a new route changes.
describe('the tool catalog', () => {
  it('has a tool for every client operation but the stated exclusions and deprecated ones', () => {
    const tools = new Set(toolCatalog().map((tool) => tool.name));
    const missing = Object.keys(clientRoutes).filter(
      (operationId) =>
        !tools.has(operationId) &&
        !(operationId in EXCLUDED_OPERATIONS) &&
        !deprecated(operationId),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(clientRoutes).filter(deprecated).length).toBeGreaterThan(0);
    expect([...tools].filter(deprecated)).toEqual([]);
    for (const excluded of Object.keys(EXCLUDED_OPERATIONS)) {
      expect(excluded in clientRoutes).toBe(true);
      expect(tools.has(excluded)).toBe(false);
    }
  });

  it('matches the snapshot: name, who may call, hints', () => {
    const rows = toolCatalog().map((tool) => {
      const who = (['public', 'agent', 'owner', 'keeper'] as const).filter((audience) =>
        audienceMayCall(tool.route, audience),
      );
      const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
      const hints = [
        readOnlyHint && 'read-only',
        destructiveHint && 'destructive',
        idempotentHint && 'idempotent',
      ].filter(Boolean);
      return `${tool.name} [${who.join(',')}] ${hints.join(' ')}`;
    });
    expect(rows).toMatchSnapshot();
  });

  it('every input schema is an object; every plan tool states the owner-signing step', () => {
    for (const tool of toolCatalog()) {
      expect(tool.inputSchema.type).toBe('object');
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe('object');
      if (tool.answersPlan) {
        expect(tool.description).toMatch(/Nothing moves until the owner signs every leg/);
        expect(tool.description).toMatch(/submitted: true/);
        expect(tool.description).toMatch(/blocked/);
        expect(tool.description).not.toContain('\n');
      }
    }
    expect(toolCatalog().filter((tool) => tool.answersPlan).length).toBeGreaterThan(8);
  });

  it('merges path, query and body arguments with their bounds', () => {
    const routeFunds = toolCatalog().find((tool) => tool.name === 'routeFunds');
    expect(routeFunds?.inputSchema['required']).toEqual(
      expect.arrayContaining(['address', 'amountMicros', 'token']),
    );
    expect(routeFunds?.placement).toMatchObject({ params: ['address'], body: 'fields' });
    expect(routeFunds?.description).toMatch(/integer micros strings/);
  });

  it('the core toolset: at most 20 tools of the catalog, none deprecated, for every role', () => {
    const names = Object.keys(CORE_TOOLS);
    expect(names.length).toBeLessThanOrEqual(20);
    const catalog = new Set(toolCatalog().map((tool) => tool.name));
    expect(names.filter((name) => !catalog.has(name))).toEqual([]);
    expect(
      toolsFor('owner')
        .map((tool) => tool.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(toolsFor('owner', undefined, 'full').length).toBe(catalog.size);
    expect(toolsFor('public').map((tool) => tool.name)).toContain('prepareDepositPlan');
    expect(toolsFor('public').map((tool) => tool.name)).not.toContain('getPosition');
  });

  it('input schemas: no alias arguments, amounts as short digit strings', () => {
    const bridge = toolCatalog().find((tool) => tool.name === 'prepareBridgePlan');
    const properties = bridge?.inputSchema['properties'] as Record<string, { pattern?: string }>;
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(['sourceChain', 'destChain']));
    for (const alias of ['srcChain', 'fromChain', 'dstChain', 'toChain']) {
      expect(properties).not.toHaveProperty(alias);
    }
    expect(properties['amountMicros']).toMatchObject({
      type: 'string',
      pattern: '^(0|[1-9][0-9]{0,18})$',
    });
    const deposit = toolCatalog().find((tool) => tool.name === 'prepareDepositPlan');
    expect(deposit?.inputSchema['properties']).not.toHaveProperty('strategyId');
  });

  it('lists no wallet tool to the public, and no owner write to an agent', () => {
    expect(
      toolsFor('public', undefined, 'full').every((tool) => tool.route.auth === 'public'),
    ).toBe(true);
    const agentWrites = toolsFor('agent', undefined, 'full').filter(
      (tool) => tool.route.auth !== 'public' && !tool.route.auth.includes('agent'),
    );
    expect(agentWrites).toEqual([]);
    expect(toolsFor('agent', new Set(['getFees'])).map((tool) => tool.name)).toEqual(['getFees']);
  });
});
