import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDb } from './client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { createFileStore } from '../files/files.ts';
import { CookieJar, freePort, localConfig, signIn } from '../test/idp.ts';
import { pgliteSnapshot } from '../test/snapshot.ts';
import { BACKUP_PATH, backupCommand, restoreCommand } from './backup.ts';

// Decision 224: a backup of a running server's embedded database and FILES_DIR, restored into a fresh folder,
// gives an instance one signs in to, with the uploaded files in place.
describe('backup and restore of the embedded database', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-test-'));
  const at = (name: string) => path.join(scratch, name);
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('takes a backup from the running server and restores it into an instance one signs in to', async () => {
    const logo = Buffer.from('a logo kept in FILES_DIR');
    const portA = await freePort();
    const configA = localConfig(portA, {
      DATABASE_URL: at('data-a'),
      FILES_DIR: at('files-a'),
      WEB_DIST: '/nonexistent',
    });
    const dbA = await openDb(configA.databaseUrl, { loadDataDir: await pgliteSnapshot() });
    const appA = await buildApp(configA, { db: dbA });
    closers.push(
      () => dbA.close(),
      () => appA.close(),
    );
    await appA.listen({ host: '127.0.0.1', port: portA });
    const stored = await createFileStore(configA.filesDir).put(dbA, {
      accountUuid: DEMO_ACCOUNTS.muster,
      purpose: 'logo',
      createdBy: null,
      contentType: 'text/plain',
      content: logo,
      fileName: 'logo.txt',
    });

    // Only with the token of this server's SECRETS_KEYS.
    const refused = await fetch(`http://127.0.0.1:${portA}${BACKUP_PATH}`, {
      method: 'POST',
      headers: { authorization: 'Bearer guessed' },
    });
    expect(refused.status).toBe(404);

    const file = at('portal.tar.gz');
    expect(await backupCommand(configA, file)).toBe(`from the running server (process ${process.pid})`);

    const portB = await freePort();
    const configB = localConfig(portB, {
      DATABASE_URL: at('data-b'),
      FILES_DIR: at('files-b'),
      WEB_DIST: '/nonexistent',
    });
    await restoreCommand(configB, file);
    await expect(restoreCommand(configB, file)).rejects.toThrow(/holds a database already/);
    expect(fs.readFileSync(path.join(configB.filesDir!, stored.uuid))).toEqual(logo);

    const appB = await buildApp(configB);
    closers.push(() => appB.close());
    await appB.listen({ host: '127.0.0.1', port: portB });
    const idp = { app: appB, config: configB, base: configB.publicUrl, port: portB, jobs: appB.jobs };
    const { tokens } = await signIn(idp, new CookieJar(), DEMO_USERS.owner.email, DEMO_PASSWORD);
    const me = await fetch(`${configB.publicUrl}/api/users/v1/me`, {
      headers: { authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(DEMO_USERS.owner.email);
    const read = await createFileStore(configB.filesDir).read(appB.db, DEMO_ACCOUNTS.muster, stored.uuid);
    expect(read?.content).toEqual(logo);
  }, 300_000);
});
