import type { RequestHandler } from 'express';

/** One route as it is mounted on Express: upper-case method, full manifest path, handler. */
export interface MountedRoute {
  readonly method: string;
  /** Literal segments and whole `{param}` segments, e.g. `/api/v1/wallets/{address}/position`. */
  readonly path: string;
  readonly handler: RequestHandler;
}

/** The route Express would run for a request, with `req.params` as Express would decode them. */
export interface RouteLookup {
  readonly handler: RequestHandler;
  readonly params: Record<string, string>;
}

type Segment =
  | { readonly param: undefined; readonly text: string; readonly lower: string }
  | { readonly param: string };

interface CompiledRoute {
  readonly segments: readonly Segment[];
  readonly handler: RequestHandler;
}

interface MethodTable {
  /** Parameterless paths no earlier route can take: answered with one Map lookup. */
  readonly exact: Map<string, RequestHandler>;
  /** Every route of the method in registration order, by segment count (`/a/b` → 3). */
  readonly bySegmentCount: Map<number, CompiledRoute[]>;
}

// Only these literals and whole-segment parameter names mean the same to us as to
// path-to-regexp 8 (which gives `( ) [ ] { } + ? ! : * \` meanings of their own).
const LITERAL = /^[A-Za-z0-9._~-]+$/;
const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * The segments of a manifest path, or undefined when the path uses anything this table does not
 * model the way Express does (then its method is left to Express entirely).
 */
function compile(path: string): Segment[] | undefined {
  if (!path.startsWith('/')) return undefined;
  const segments: Segment[] = [];
  for (const [index, part] of path.split('/').entries()) {
    const param = PARAM.exec(part)?.[1];
    if (param !== undefined) segments.push({ param });
    // Empty only before the leading slash, or after it for the root path `/`.
    else if (index === 0 ? part === '' : LITERAL.test(part) || path === '/') {
      segments.push({ param: undefined, text: part, lower: part.toLowerCase() });
    } else return undefined;
  }
  return segments;
}

type Comparison = 'exact' | 'other-case' | 'no';

/**
 * How a request path compares with a route pattern under Express's rules for our mounts
 * (path-to-regexp 8, case-insensitive, a parameter is one or more characters other than `/`).
 * `other-case` means Express would take the route but the literals differ in letter case.
 */
function compare(route: CompiledRoute, segments: readonly string[]): Comparison {
  let result: Comparison = 'exact';
  for (let i = 0; i < segments.length; i += 1) {
    const pattern = route.segments[i] as Segment;
    const segment = segments[i] as string;
    if (pattern.param !== undefined) {
      if (segment === '') return 'no';
    } else if (segment !== pattern.text) {
      // Over-approximates the regex `i` flag (never under-approximates): when in doubt the
      // request goes to Express, which is always right.
      if (segment.length !== pattern.text.length || segment.toLowerCase() !== pattern.lower) {
        return 'no';
      }
      result = 'other-case';
    }
  }
  return result;
}

/**
 * Finds, for the common request, the route Express would run, without walking Express's
 * layer list (hundreds of layers: every canonical path, every legacy alias, then the 405
 * handlers). It answers only when it is certain to give Express's answer, and says
 * `undefined` (leave it to Express, whose routes all stay mounted) otherwise:
 *
 * - precedence is Express's: the first route registered for the method (GET for HEAD) whose
 *   pattern matches wins, so a static path that an earlier parameterised route matches goes
 *   to that earlier route;
 * - Express matches literals case-insensitively and accepts a trailing slash: a request that
 *   relies on either (the first matching route differs from it only in letter case, or the
 *   path ends in `/`) is left to Express;
 * - parameters are decoded with decodeURIComponent where they hold a `%`, as Express does; a
 *   path with a malformed escape anywhere is left to Express, which fails it while matching
 *   (and may do so on a route of another method, before the method is even considered);
 * - a method with no route here (OPTIONS, PATCH…) or a path no route matches is left to
 *   Express, which answers 405 with Allow, or 404.
 */
export class RouteTable {
  private readonly methods = new Map<string, MethodTable>();

  constructor(routes: readonly MountedRoute[]) {
    const compiled = new Map<string, CompiledRoute[]>();
    const unmodelled = new Set<string>();
    for (const { method, path, handler } of routes) {
      const segments = compile(path);
      if (!segments) unmodelled.add(method);
      else {
        const list = compiled.get(method) ?? [];
        list.push({ segments, handler });
        compiled.set(method, list);
      }
    }
    for (const [method, list] of compiled) {
      if (unmodelled.has(method)) continue;
      const table: MethodTable = { exact: new Map(), bySegmentCount: new Map() };
      for (const route of list) {
        const count = route.segments.length;
        const sameCount = table.bySegmentCount.get(count) ?? [];
        if (route.segments.every((segment) => segment.param === undefined)) {
          const texts = route.segments.map((segment) =>
            segment.param === undefined ? segment.text : '',
          );
          const path = texts.join('/');
          const taken = sameCount.some((earlier) => compare(earlier, texts) !== 'no');
          if (!taken) table.exact.set(path, route.handler);
        }
        sameCount.push(route);
        table.bySegmentCount.set(count, sameCount);
      }
      this.methods.set(method, table);
    }
  }

  /** The route Express would run for `method` and `path` (the URL's pathname), or undefined. */
  lookup(method: string, path: string): RouteLookup | undefined {
    const table = this.methods.get(method === 'HEAD' ? 'GET' : method);
    if (!table) return undefined;
    const exact = table.exact.get(path);
    // Express gives every matched route a fresh params object without a prototype.
    if (exact) return { handler: exact, params: Object.create(null) as Record<string, string> };
    // Express accepts a trailing slash; here the empty last segment would match nothing anyway.
    if (path.length > 1 && path.endsWith('/')) return undefined;
    if (path.includes('%') && !decodes(path)) return undefined;
    const segments = path.split('/');
    for (const route of table.bySegmentCount.get(segments.length) ?? []) {
      const comparison = compare(route, segments);
      if (comparison === 'no') continue;
      if (comparison === 'other-case') return undefined;
      const params = Object.create(null) as Record<string, string>;
      route.segments.forEach((segment, i) => {
        if (segment.param === undefined) return;
        const raw = segments[i] as string;
        params[segment.param] = raw.includes('%') ? decodeURIComponent(raw) : raw;
      });
      return { handler: route.handler, params };
    }
    return undefined;
  }
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
