import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { TEST_SECRETS_KEYS as SECRETS_KEYS } from './test/api.ts';

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

  it('turns demo data and the outbox on by default only on a loopback PUBLIC_URL', () => {
    const loopback = [
      'http://localhost:8080',
      'http://127.0.0.1:3000',
      'http://127.2.3.4',
      'http://[::1]:8080',
    ];
    const elsewhere = [
      'https://portal.example.com',
      'http://10.0.0.5:8080',
      'http://128.0.0.1',
      'http://[::2]',
    ];
    for (const [publicUrl, on] of [
      ...loopback.map((url) => [url, true] as const),
      ...elsewhere.map((url) => [url, false] as const),
    ]) {
      const config = loadConfig({ PUBLIC_URL: publicUrl, SECRETS_KEYS });
      expect(config.demoData, publicUrl).toBe(on);
      expect(config.devMail, publicUrl).toBe(on);
    }
    expect(loadConfig({ DEMO_DATA: 'false' }).demoData).toBe(false);
  });

  it('refuses to start with demo data on a public PUBLIC_URL unless forced, naming the risk', () => {
    const env = { PUBLIC_URL: 'https://portal.example.com', DEMO_DATA: 'true' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).variable).toBe('DEMO_DATA');
      expect((error as Error).message).toMatch(/take over accounts/);
      expect((error as Error).message).toMatch(/DEMO_DATA=force/);
    }
    const forced = loadConfig({ ...env, DEMO_DATA: 'force' });
    expect(forced.demoData).toBe(true);
    expect(forced.devMail).toBe(true);
  });

  it('never serves the outbox when ENVIRONMENT is set to prod, even with demo data on', () => {
    expect(loadConfig({ ENVIRONMENT: 'prod', SECRETS_KEYS })).toMatchObject({
      demoData: true,
      devMail: false,
    });
    expect(
      loadConfig({ ENVIRONMENT: 'prod', PUBLIC_URL: 'https://x.example', DEMO_DATA: 'force', SECRETS_KEYS })
        .devMail,
    ).toBe(false);
    expect(loadConfig({ ENVIRONMENT: 'dev' })).toMatchObject({ devMail: true, serveSourceMaps: true });
    expect(loadConfig({})).toMatchObject({ environment: 'prod', serveSourceMaps: false, metricsToken: null });
  });

  it('plays the cloud in a second embedded realm in demo mode, takes CLOUD_* otherwise, and has none by default', () => {
    expect(loadConfig({ PORT: '8080' }).cloud).toEqual({
      embedded: true,
      issuer: 'http://localhost:8080/realms/cloud',
      clientId: 'portal-cloud-connector',
      clientSecret: null,
      scopes: 'openid profile email offline_access organizations',
      organizationsUrl: 'http://localhost:8080/realms/cloud/api/organizations',
      redirectUri: 'http://localhost:8080/deepcloud/connect',
    });
    const production = { PUBLIC_URL: 'https://portal.example.com', SECRETS_KEYS };
    expect(loadConfig(production).cloud).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'http://localhost:8080', DEMO_DATA: 'false' }).cloud).toBeNull();
    const external = loadConfig({
      ...production,
      CLOUD_ISSUER: 'https://login.cloud.example/',
      CLOUD_CLIENT_ID: 'portal',
      CLOUD_CLIENT_SECRET: 's3cret',
      CLOUD_SCOPES: 'openid offline_access orgs',
      CLOUD_ORGANIZATIONS_URL: 'https://api.cloud.example/v1/organizations',
    }).cloud;
    expect(external).toEqual({
      embedded: false,
      issuer: 'https://login.cloud.example',
      clientId: 'portal',
      clientSecret: 's3cret',
      scopes: 'openid offline_access orgs',
      organizationsUrl: 'https://api.cloud.example/v1/organizations',
      redirectUri: 'https://portal.example.com/deepcloud/connect',
    });
    expect(() => loadConfig({ ...production, CLOUD_ISSUER: 'https://login.cloud.example' })).toThrow(
      /CLOUD_CLIENT_ID/,
    );
    expect(() => loadConfig({ ...production, CLOUD_ISSUER: 'ftp://x', CLOUD_CLIENT_ID: 'p' })).toThrow(
      /CLOUD_ISSUER/,
    );
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
      [{ DRAIN_SECONDS: '0' }, 'DRAIN_SECONDS'],
      [{ SUPPORT_HOURS: 'Mo-Fr 8-17' }, 'SUPPORT_HOURS'],
      [{ SUPPORT_HOURS: '5-1 08:00-17:00 Europe/Zurich' }, 'SUPPORT_HOURS'],
      [{ SUPPORT_RESPONSE_HOURS: 'LOW=40,NORMAL=16,HIGH=8' }, 'SUPPORT_RESPONSE_HOURS'],
      [{ BILLING_IBAN: 'CH93 0076 2011 6238 5295 8' }, 'BILLING_IBAN'],
      // A valid IBAN, but a QR-bill's account must be Swiss or from Liechtenstein.
      [{ BILLING_IBAN: 'DE89 3704 0044 0532 0130 00' }, 'BILLING_IBAN'],
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

  it('drains for 20 seconds on SIGTERM unless DRAIN_SECONDS says otherwise', () => {
    expect(loadConfig({}).drainMs).toBe(20_000);
    expect(loadConfig({ DRAIN_SECONDS: '5' }).drainMs).toBe(5_000);
  });

  it("reads support's contact, hours and response times, with defaults for a fresh start", () => {
    expect(loadConfig({ PUBLIC_URL: 'https://www.portal.example.ch', SECRETS_KEYS }).support).toEqual({
      email: 'support@portal.example.ch',
      phone: null,
      hours: { days: [1, 2, 3, 4, 5], from: '08:00', to: '17:00', timeZone: 'Europe/Zurich' },
      responseHours: { LOW: 40, NORMAL: 16, HIGH: 8, CRITICAL: 2 },
    });
    expect(loadConfig({}).support.email).toBe('support@example.com');
    const custom = loadConfig({
      SUPPORT_EMAIL: 'hilfe@example.ch',
      SUPPORT_PHONE: '+41 44 555 12 34',
      SUPPORT_HOURS: '1-6 07:30-18:00 Europe/Berlin',
      SUPPORT_RESPONSE_HOURS: 'CRITICAL=1, HIGH=4,NORMAL=8,LOW=24',
    }).support;
    expect(custom).toEqual({
      email: 'hilfe@example.ch',
      phone: '+41 44 555 12 34',
      hours: { days: [1, 2, 3, 4, 5, 6], from: '07:30', to: '18:00', timeZone: 'Europe/Berlin' },
      responseHours: { LOW: 24, NORMAL: 8, HIGH: 4, CRITICAL: 1 },
    });
  });

  it('takes the retention table from RETENTION_* and AUDIT_RETENTION_DAYS, refusing what the rules forbid', () => {
    expect(loadConfig({}).retention).toEqual({
      auditLogDays: 400,
      signInsDays: 90,
      notificationsDays: 180,
      outboxDays: 30,
      exportsDays: 8,
      deletedPersonsDays: 30,
      failedJobsDays: 30,
    });
    const set = loadConfig({ AUDIT_RETENTION_DAYS: '3650', RETENTION_NOTIFICATIONS_DAYS: '60' }).retention;
    expect(set).toMatchObject({ auditLogDays: 3650, notificationsDays: 60, outboxDays: 30 });
    // The log keeps 30 days whatever is set (its trigger, decision 097); an export is offered 7 days.
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '29' })).toThrow(/AUDIT_RETENTION_DAYS/);
    expect(() => loadConfig({ RETENTION_EXPORTS_DAYS: '6' })).toThrow(/RETENTION_EXPORTS_DAYS/);
    expect(() => loadConfig({ RETENTION_OUTBOX_DAYS: 'soon' })).toThrow(/RETENTION_OUTBOX_DAYS/);
  });
});
