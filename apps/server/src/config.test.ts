import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the embedded provider, demo data and port 8080', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.oidc).toMatchObject({
      embedded: true,
      issuer: 'http://localhost:8080/realms/portal',
      realm: 'portal',
    });
    expect(config.demoData).toBe(true);
    expect(config.version).toBe('2.6.0+local');
    expect(config.trustProxy).toBe(false);
  });

  it('takes an external Keycloak realm apart for keycloak-js', () => {
    const config = loadConfig({ OIDC_ISSUER: 'https://sso.example.com/auth/realms/acme/' });
    expect(config.oidc).toMatchObject({
      embedded: false,
      url: 'https://sso.example.com/auth',
      realm: 'acme',
    });
    expect(config.demoData).toBe(false);
  });

  it('names the bad variable', () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ OIDC_ISSUER: 'https://sso.example.com/' }, 'OIDC_ISSUER'],
      [{ MAINTENANCE: 'maybe' }, 'MAINTENANCE'],
      [{ TRUST_PROXY: 'everyone!' }, 'TRUST_PROXY'],
    ];
    for (const [env, variable] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as ConfigError).variable).toBe(variable);
        expect((error as Error).message).toContain(variable);
      }
    }
  });

  it('reads TRUST_PROXY as a flag, a hop count or addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
  });
});
