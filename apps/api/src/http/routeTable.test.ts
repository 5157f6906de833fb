import express from 'express';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { routeList, routePaths } from '@yieldrouter/schemas';
import type { MountedRoute } from './routeTable';
import { RouteTable } from './routeTable';

// Express's own answer is checked end to end in dispatch.test.ts; these pin the precedence
// rules on route lists the manifest does not have (yet).
const handler = (name: string): RequestHandler =>
  Object.defineProperty((): void => undefined, 'name', { value: name });

function table(routes: readonly (readonly [method: string, path: string])[]) {
  const mounted: MountedRoute[] = routes.map(([method, path]) => ({
    method,
    path,
    handler: handler(`${method} ${path}`),
  }));
  const routeTable = new RouteTable(mounted);
  return (method: string, path: string) => {
    const found = routeTable.lookup(method, path);
    return found && { route: found.handler.name, params: { ...found.params } };
  };
}

describe('RouteTable', () => {
  it('takes the first registered route that matches, as Express does', () => {
    const lookup = table([
      ['GET', '/api/items/priority'],
      ['GET', '/api/items/{id}'],
      ['GET', '/api/things/{id}'],
      ['GET', '/api/things/special'],
      ['POST', '/api/things/special'],
    ]);
    expect(lookup('GET', '/api/items/priority')).toEqual({
      route: 'GET /api/items/priority',
      params: {},
    });
    expect(lookup('GET', '/api/items/i-1')).toEqual({
      route: 'GET /api/items/{id}',
      params: { id: 'i-1' },
    });
    // Shadowed: the earlier parameterised route takes the static path.
    expect(lookup('GET', '/api/things/special')).toEqual({
      route: 'GET /api/things/{id}',
      params: { id: 'special' },
    });
    // Precedence is per method: the POST route is not shadowed by a GET one.
    expect(lookup('POST', '/api/things/special')?.route).toBe('POST /api/things/special');
  });

  it('answers HEAD with the GET route and leaves unknown methods to Express', () => {
    const lookup = table([['GET', '/a/{x}']]);
    expect(lookup('HEAD', '/a/1')?.route).toBe('GET /a/{x}');
    expect(lookup('DELETE', '/a/1')).toBeUndefined();
    expect(lookup('OPTIONS', '/a/1')).toBeUndefined();
  });

  it('leaves letter-case differences and trailing slashes to Express', () => {
    const lookup = table([
      ['GET', '/api/items/priority'],
      ['GET', '/api/items/{id}'],
    ]);
    // Express would match the static route case-insensitively, not {id} = PRIORITY.
    expect(lookup('GET', '/api/items/PRIORITY')).toBeUndefined();
    expect(lookup('GET', '/API/items/x')).toBeUndefined();
    expect(lookup('GET', '/api/items/x/')).toBeUndefined();
    expect(lookup('GET', '/api/items/priority/')).toBeUndefined();
    // Parameter values keep their case.
    expect(lookup('GET', '/api/items/AbC')?.params).toEqual({ id: 'AbC' });
  });

  it('decodes parameters like Express and leaves malformed escapes to it', () => {
    const lookup = table([
      ['GET', '/w/{address}/legs/{leg}'],
      ['DELETE', '/x/{id}'],
      ['GET', '/x/{id}'],
    ]);
    expect(lookup('GET', '/w/a%2Fb%20c/legs/%C3%A9')?.params).toEqual({
      address: 'a/b c',
      leg: 'é',
    });
    expect(lookup('GET', '/w/a+b/legs/1')?.params).toEqual({ address: 'a+b', leg: '1' });
    expect(lookup('GET', '/w/%ZZ/legs/1')).toBeUndefined();
    expect(lookup('GET', '/w/%E0%A4%A/legs/1')).toBeUndefined();
    // Express fails the DELETE route's decoding before it even looks at the method.
    expect(lookup('GET', '/x/%')).toBeUndefined();
  });

  it('needs a non-empty value for every parameter and the same number of segments', () => {
    const lookup = table([['GET', '/w/{address}/position']]);
    expect(lookup('GET', '/w//position')).toBeUndefined();
    expect(lookup('GET', '/w/a/b/position')).toBeUndefined();
    expect(lookup('GET', '/w/a/position/more')).toBeUndefined();
  });

  it('serves the root path and leaves a method with a path it cannot model to Express', () => {
    const lookup = table([
      ['GET', '/'],
      ['GET', '/a'],
      ['POST', '/files/:name(*)'],
      ['POST', '/b'],
    ]);
    expect(lookup('GET', '/')?.route).toBe('GET /');
    expect(lookup('GET', '//')).toBeUndefined();
    expect(lookup('POST', '/b')).toBeUndefined();
  });

  it('agrees with Express wherever it answers', async () => {
    const routes = [
      ['GET', '/'],
      ['GET', '/api/items/priority'],
      ['GET', '/api/items/{id}'],
      ['DELETE', '/api/items/{id}'],
      ['GET', '/api/things/{id}'],
      ['GET', '/api/things/special'],
      ['POST', '/api/things/special'],
      ['GET', '/api/w/{address}/legs/{leg}'],
      ['GET', '/api/w/{address}/position'],
      ['PUT', '/api/w/{address}/position'],
    ] as const;
    const app = express();
    for (const [method, path] of routes) {
      const name = `${method} ${path}`;
      app[method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](
        path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1'),
        (req, res) => {
          res.json({ route: name, params: { ...req.params } });
        },
      );
    }
    const lookup = table(routes);
    const probes: [string, string][] = [];
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']) {
      for (const path of [
        '/',
        '/api/items/priority',
        '/api/items/x-1',
        '/api/items/Priority',
        '/api/items/priority%20',
        '/api/items/%70riority',
        '/api/things/special',
        '/api/things/%E2%82%AC',
        '/api/w/0xAbC/position',
        '/api/w/0x%41bC/position',
        '/api/w/a%2Fb/legs/%C3%A9',
        '/api/w/a:b;c=d,e/legs/(1)',
        '/api/w/~.-_/position',
      ]) {
        probes.push([method, path]);
      }
    }
    let answered = 0;
    for (const [method, path] of probes) {
      const found = lookup(method, path);
      if (!found) continue;
      answered += 1;
      const res = await request(app)[method.toLowerCase() as 'get'](path);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 200 });
      // HEAD has no body to compare; its route is the GET one, checked above.
      if (method !== 'HEAD') expect(res.body).toEqual(found);
    }
    expect(answered).toBeGreaterThan(probes.length / 3);
  });

  it('models every path of the manifest', () => {
    const mounted = routeList.flatMap((route) => {
      const { canonical, aliases } = routePaths(route);
      return [canonical, ...aliases].map((path) => ({
        method: route.method.toUpperCase(),
        path,
        handler: handler(`${route.operationId} ${path}`),
      }));
    });
    const routeTable = new RouteTable(mounted);
    for (const { method, path, handler: expected } of mounted) {
      const sample = path.replace(/\{[^}]+\}/g, 'sample');
      const found = routeTable.lookup(method, sample);
      // Either this route or an earlier one that also matches the sample, never nothing.
      expect(found).toBeDefined();
      if (!path.includes('{')) expect(found?.handler).toBe(expected);
    }
  });
});
