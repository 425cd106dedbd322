import { describe, expect, it } from 'vitest';
import { buildRoutes } from './routes.tsx';

describe('buildRoutes', () => {
  it('gives every top-level route a HydrateFallback, so a direct load shows the loader, not a warning', () => {
    const routes = buildRoutes(() => null);
    for (const route of routes) expect(route.HydrateFallback, route.id).toBeDefined();
  });
});
