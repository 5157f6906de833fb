import type { ToolDefinition } from './toolTypes';

type Arguments = Readonly<Record<string, unknown>>;

export interface SplitArguments {
  readonly params?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
  /** Arguments no part of the route takes. */
  readonly unknown: readonly string[];
}

const pick = (args: Arguments, names: readonly string[]) => {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (args[name] !== undefined) picked[name] = args[name];
  return picked;
};

/** The tool arguments as the REST request's path parameters, query and body. */
export function splitArguments(tool: ToolDefinition, args: Arguments): SplitArguments {
  const { placement } = tool;
  const known = new Set([
    ...placement.params,
    ...placement.query,
    ...(placement.body === 'whole' ? ['body'] : placement.bodyFields),
  ]);
  const split: {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
  } = {};
  if (placement.params.length > 0) split.params = pick(args, placement.params);
  if (placement.query.length > 0) split.query = pick(args, placement.query);
  if (placement.body === 'fields') split.body = pick(args, placement.bodyFields);
  if (placement.body === 'whole') split.body = args['body'];
  return { ...split, unknown: Object.keys(args).filter((name) => !known.has(name)) };
}
