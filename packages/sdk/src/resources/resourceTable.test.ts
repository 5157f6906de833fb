import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalPath, clientRoutes } from '@yieldrouter/schemas';
import type { RouteDefinition } from '@yieldrouter/schemas';
import { resourceNames } from './resourceNames';
import { resourceTable } from './resourceTable';

/** The table as the manifest and the names say: per namespace, per method, the operation. */
function fromManifest(): Record<string, Record<string, readonly string[]>> {
  const table: Record<string, Record<string, readonly string[]>> = {};
  for (const [operationId, route] of Object.entries(
    clientRoutes as Record<string, RouteDefinition>,
  )) {
    const [namespace, method] = resourceNames[operationId as keyof typeof resourceNames];
    const input = route.request.body ? 'body' : route.request.query ? 'query' : 'none';
    const params = [...canonicalPath(route).matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '');
    (table[namespace] ??= {})[method] = [operationId, input, ...params];
  }
  return table;
}

function render(table: Record<string, Record<string, readonly string[]>>): string {
  const lines = [
    '// Generated from the route manifest and resourceNames.ts by',
    '// `UPDATE_RESOURCE_TABLE=1 npx jest src/resources/resourceTable.test.ts` (in packages/sdk);',
    '// that test fails when this file and the manifest disagree.',
    '',
    '/** Per namespace, per method: [operationId, what the input argument is, ...path params]. */',
    'export const resourceTable = {',
  ];
  for (const [namespace, methods] of Object.entries(table)) {
    lines.push(`  ${namespace}: {`);
    for (const [method, entry] of Object.entries(methods)) {
      const items = entry.map((item) => `'${item}'`).join(', ');
      lines.push(`    ${method}: [${items}],`);
    }
    lines.push('  },');
  }
  lines.push('} as const;', '');
  return lines.join('\n');
}

describe('the resource namespaces the client is built from', () => {
  it('are the manifest: every client operation once, its input and its path parameters', () => {
    const expected = fromManifest();
    if (process.env.UPDATE_RESOURCE_TABLE === '1') {
      writeFileSync(join(__dirname, 'resourceTable.ts'), render(expected));
      return;
    }
    expect(resourceTable).toEqual(expected);
  });

  it('never name a namespace like a flat method (both live on the client)', () => {
    const operations = new Set(Object.keys(clientRoutes));
    expect(Object.keys(resourceTable).filter((namespace) => operations.has(namespace))).toEqual([]);
  });
});
