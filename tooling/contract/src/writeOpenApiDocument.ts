import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildOpenApiDocument, routeList } from '@yieldrouter/schemas';

/**
 * Writes the OpenAPI document exactly as the API builds it (same manifest, same builder) to
 * `.openapi/openapi.json`, so the lint and the generated client check what is served.
 */
export function writeOpenApiDocument(directory = path.join(__dirname, '..', '.openapi')): string {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, 'openapi.json');
  writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(routeList), null, 2)}\n`);
  return file;
}

if (require.main === module) writeOpenApiDocument();
