import type { RouteDefinition } from '@yieldrouter/schemas';
import { SAMPLE_PARAMS } from './startTestApp';

/** Fills `{param}` segments with well-formed sample values. */
export function samplePath(path: string, overrides: Record<string, string> = {}): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, (_match, name: string) => {
    const value = overrides[name] ?? SAMPLE_PARAMS[name];
    if (value === undefined) throw new Error(`no sample value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** The keyed roles a route does not allow. */
export function forbiddenRoles(route: RouteDefinition): Array<'owner' | 'agent' | 'keeper'> {
  if (route.auth === 'public') return [];
  const allowed = route.auth as readonly string[];
  return (['owner', 'agent', 'keeper'] as const).filter((role) => !allowed.includes(role));
}
