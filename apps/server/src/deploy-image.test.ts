import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Decision 225: no container engine runs here, so the Dockerfile and compose.yaml are held to what the repository
// and README say: the start command, the files they copy or mount, the ports and the variables.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const readme = read('README.md');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The Dockerfile's instructions, continuation lines joined, comments dropped; `stage` counts the FROMs. */
function instructions(text: string) {
  const joined = text.replace(/\\\n\s*/g, '');
  let stage = -1;
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
      if (keyword === 'FROM') stage += 1;
      return { keyword: keyword!, rest: rest!, stage };
    });
}

/** A variable README documents: its configuration table's default, or '' for one explained in a list item. */
function documented(name: string): string | undefined {
  const lines = readme.split('\n');
  const row = lines.find((line) => line.startsWith('|') && line.includes(`\`${name}\``));
  if (row) return row.split('|')[2]?.trim();
  return lines.some((line) => line.startsWith(`- \`${name}\``)) ? '' : undefined;
}

/** Variables the image or compose file set that README has no row for are allowed only when listed here. */
const SET_BY_PLATFORM = new Set(['NODE_ENV']);

const NGINX_CONF = 'deploy/nginx/portal.conf';

/** Files compose mounts that the operator provides (the certificate, README's production set-up). */
const PROVIDED_BY_OPERATOR = new Set(['deploy/certs']);

describe('the production image and compose file', () => {
  const docker = instructions(read('Dockerfile'));
  const final = docker.filter((step) => step.stage === Math.max(...docker.map((s) => s.stage)));
  const compose = parse(read('compose.yaml'), { merge: true }) as {
    services: Record<string, Record<string, unknown>>;
  };

  const portalServices = () =>
    Object.entries(compose.services).filter(([, service]) =>
      String(service.image ?? '').startsWith('portal:'),
    );
  const instanceAddresses = () =>
    portalServices().map(([, service]) => {
      const environment = service.environment as Record<string, string>;
      return `${environment.HOST}:${environment.PORT}`;
    });

  it('starts the server as npm run start:server does, as a user other than root, checked on /readyz', () => {
    const cmd = final.filter((step) => step.keyword === 'CMD').at(-1)!;
    expect(JSON.parse(cmd.rest)).toEqual(scripts['start:server']!.split(' '));
    const user = final.filter((step) => step.keyword === 'USER').at(-1);
    expect(user?.rest).toBeDefined();
    expect(user!.rest).not.toMatch(/^(root|0)(:|$)/);
    const health = final.find((step) => step.keyword === 'HEALTHCHECK')!;
    expect(health.rest).toContain('/readyz');
    // The web app is built once, in the build stage.
    const runs = docker.filter((step) => step.keyword === 'RUN');
    expect(runs.filter((step) => /npm run build\b/.test(step.rest))).toHaveLength(1);
    for (const step of runs) {
      for (const [, script] of step.rest.matchAll(/npm run ([\w:-]+)/g))
        expect(scripts).toHaveProperty(script!);
    }
  });

  it('copies only files that exist, or that the build makes', () => {
    const outputs = ['node_modules', 'apps/web/dist'];
    for (const step of docker.filter((s) => s.keyword === 'COPY')) {
      const words = step.rest.split(/\s+/).filter((word) => !word.startsWith('--'));
      const fromBuild = step.rest.includes('--from=');
      for (const source of words.slice(0, -1)) {
        const file = fromBuild ? source.replace(/^\/app\/?/, '') : source;
        if (file === '.' || (fromBuild && outputs.includes(file))) continue;
        expect(fs.existsSync(path.join(root, file)), `${step.rest}: ${file}`).toBe(true);
      }
    }
    // The build outputs are where the server looks for them.
    expect(documented('WEB_DIST')).toBe('`apps/web/dist`');
    expect(read('scripts/build-server.mjs')).toContain("'apps/server/dist'");
  });

  it('sets only variables README documents, and exposes the documented port', () => {
    const env = final
      .filter((step) => step.keyword === 'ENV')
      .flatMap((step) => step.rest.split(/\s+/).map((pair) => pair.split('=') as [string, string]));
    for (const [name] of env) if (!SET_BY_PLATFORM.has(name)) expect(documented(name), name).toBeDefined();
    const port = env.find(([name]) => name === 'PORT')![1];
    expect(documented('PORT')).toBe(`\`${port}\``);
    expect(final.find((step) => step.keyword === 'EXPOSE')?.rest).toBe(port);
    expect(documented('DATABASE_URL')).toBeDefined();
  });

  it('runs two instances of the image with documented variables, and mounts files that exist', () => {
    const instances = portalServices();
    expect(instances).toHaveLength(2);
    expect(instances.filter(([, service]) => service.build)).toHaveLength(1);
    const ports = instances.map(([, service]) => {
      const environment = service.environment as Record<string, string>;
      for (const name of Object.keys(environment)) expect(documented(name), name).toBeDefined();
      expect(environment.TRUST_PROXY).toBe('1');
      expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/.*@db:5432\//);
      return `${environment.HOST}:${environment.PORT}`;
    });
    expect(new Set(ports).size).toBe(2);
    for (const service of Object.values(compose.services)) {
      for (const volume of (service.volumes as string[] | undefined) ?? []) {
        const source = volume.split(':')[0]!;
        if (!source.startsWith('./')) continue;
        const file = path.normalize(source);
        if (PROVIDED_BY_OPERATOR.has(file) || file === NGINX_CONF) continue;
        expect(fs.existsSync(path.join(root, file)), file).toBe(true);
      }
    }
  });

  // The nginx configuration comes with issue 25 item 2 (a branch of its own): until both are merged, this waits.
  it.skipIf(!fs.existsSync(path.join(root, NGINX_CONF)))(
    'mounts nginx configuration the suite tests, whose upstream names exactly these instances',
    () => {
      const nginx = compose.services.nginx!;
      expect(nginx.volumes).toContain(`./${NGINX_CONF}:/etc/nginx/conf.d/default.conf:ro`);
      const upstream = [...read(NGINX_CONF).matchAll(/^\s*server\s+([\d.]+:\d+)/gm)].map((match) => match[1]);
      expect(upstream.sort()).toEqual(instanceAddresses().sort());
    },
  );
});
