import { routeList, routes } from './allRoutes';
import { routePaths } from './defineRoute';

describe('route manifest', () => {
  it('operation ids are unique and match their keys', () => {
    for (const [key, route] of Object.entries(routes)) expect(route.operationId).toBe(key);
    const ids = routeList.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('method + path pairs are unique', () => {
    const pairs = routeList.map((route) => `${route.method} ${routePaths(route).canonical}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('only /health and / are unversioned; legacy aliases cover /svc and /wallets', () => {
    expect(routeList.filter((route) => !route.versioned).map((route) => route.path)).toEqual([
      '/health',
      '/',
    ]);
    expect(routePaths(routes.getStatus).aliases).toEqual(['/api/svc/status']);
    expect(routePaths(routes.getPosition).aliases).toEqual(['/api/wallets/{address}/position']);
    expect(routePaths(routes.listAutoYieldVenues).aliases).toEqual([]);
  });

  it('wallet routes that need a key are scoped to the path wallet', () => {
    for (const route of routeList) {
      if (route.path.startsWith('/wallets/{address}') && route.auth !== 'public') {
        expect(route.walletParam).toBe('address');
      }
    }
  });

  it('every path parameter is declared in the params schema', () => {
    for (const route of routeList) {
      const names = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((match) => match[1]);
      const declared = Object.keys(route.request.params?.shape ?? {});
      expect(declared.sort()).toEqual(names.sort());
    }
  });
});
