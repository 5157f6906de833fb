import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalPath, clientRouteDomains } from '@yieldrouter/schemas';
import type { ClientRouteDomain, RouteDefinition } from '@yieldrouter/schemas';
import type { RouteEntry } from './clientRoute';
import { routeTable } from './routeTable';

/** The table as the manifest says it should be, in manifest order. */
function fromManifest(): Record<string, RouteEntry> {
  const table: Record<string, RouteEntry> = {};
  for (const [domain, routes] of Object.entries(clientRouteDomains)) {
    for (const [operationId, route] of Object.entries(routes as Record<string, RouteDefinition>)) {
      const method = route.method.toUpperCase() as RouteEntry[0];
      const base = [method, canonicalPath(route), domain as ClientRouteDomain] as const;
      table[operationId] = route.request.headers?.includes('Idempotency-Key') ? [...base, 1] : base;
    }
  }
  return table;
}

function render(table: Record<string, RouteEntry>): string {
  // As prettier prints it (printWidth 100): one line, or one element a line when it is longer.
  const rows = Object.entries(table).map(([operationId, entry]) => {
    const items = entry.map((item) => (typeof item === 'string' ? `'${item}'` : String(item)));
    const line = `  ${operationId}: [${items.join(', ')}],`;
    if (line.length <= 100) return line;
    return [`  ${operationId}: [`, ...items.map((item) => `    ${item},`), '  ],'].join('\n');
  });
  return [
    '// Generated from the route manifest by `UPDATE_ROUTE_TABLE=1 npx jest src/routes/routeTable.test.ts`',
    '// (in packages/sdk); that test fails when this file and the manifest disagree.',
    "import type { RouteTable } from './clientRoute';",
    '',
    '/** Every client route: method, canonical path, manifest domain, Idempotency-Key (1). */',
    'export const routeTable: RouteTable = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}

describe('the route table the client is built from', () => {
  it('is the manifest: every client route, its method, path, domain and Idempotency-Key', () => {
    const expected = fromManifest();
    if (process.env.UPDATE_ROUTE_TABLE === '1') {
      writeFileSync(join(__dirname, 'routeTable.ts'), render(expected));
      return;
    }
    expect(routeTable).toEqual(expected);
    expect(Object.keys(routeTable)).toEqual(Object.keys(expected));
  });
});
