import type { RawParameters } from '../operationTypes';
import { resourceTable } from './resourceTable';
import type { YieldRouterResources } from './resourceTypes';

type FlatMethod = (parameters?: RawParameters) => Promise<unknown>;

/**
 * The resource namespaces over the flat methods: each namespaced call becomes the flat call
 * with `params` from the leading arguments and the input as its body or query, so retries,
 * Idempotency-Keys, typed errors and response validation are the flat method's.
 */
export function createResources(flat: Readonly<Record<string, FlatMethod>>): YieldRouterResources {
  const resources: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const [namespace, methods] of Object.entries(resourceTable)) {
    const group: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const [name, entry] of Object.entries(methods)) {
      const [operationId, input, ...paramNames] = entry as readonly string[];
      const call = flat[operationId as string];
      if (!call) throw new Error(`resourceTable names ${operationId}, which the client lacks`);
      group[name] = (...args) => {
        const params: Record<string, unknown> = {};
        paramNames.forEach((param, index) => {
          params[param] = args[index];
        });
        const value = args[paramNames.length];
        const controls = (args[paramNames.length + 1] ?? {}) as RawParameters;
        return call({
          ...controls,
          ...(paramNames.length > 0 ? { params } : {}),
          ...(input === 'body' && value !== undefined ? { body: value } : {}),
          ...(input === 'query' && value !== undefined
            ? { query: value as Readonly<Record<string, unknown>> }
            : {}),
        });
      };
    }
    resources[namespace] = Object.freeze(group);
  }
  return resources as unknown as YieldRouterResources;
}
