// npm run db:migrate / npm run db:seed — against DATABASE_URL (default: PGlite under data/).
// `template`: the build's migrated PGlite template that a new data folder starts from (decision 223).
// npm run db:backup -- <file> / npm run db:restore -- <file> — the embedded database and FILES_DIR (decision 224).
// tsx apps/server/src/cli.ts forget-person <subject> — erases a person whose identity is gone (decision 232).
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from './config.ts';
import { openDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { saveTemplate, templateFile } from './db/template.ts';
import { seedDemoIdentities } from './demo/identities.ts';
import { seedDemoData } from './demo/seed.ts';
import { backupCommand, restoreCommand } from './db/backup.ts';
import { erasePerson } from './modules/security/erasure.ts';

const command = process.argv[2];
const COMMANDS = ['migrate', 'seed', 'template', 'backup', 'restore', 'forget-person'];
if (
  !COMMANDS.includes(command ?? '') ||
  (['backup', 'restore', 'forget-person'].includes(command!) && !process.argv[3])
) {
  console.error(
    'usage: cli.ts migrate|seed|template, cli.ts backup|restore <file>, cli.ts forget-person <subject>',
  );
  process.exit(2);
}

if (command === 'template') {
  if (fs.existsSync(templateFile())) {
    console.log('the database template is up to date');
  } else {
    const db = await openDb('memory://', { walSegmentMb: 1 });
    await migrate(db);
    const file = await saveTemplate(await db.dumpDataDir!());
    await db.close();
    console.log(`database template written: ${path.relative(process.cwd(), file)}`);
  }
  process.exit(0);
}

try {
  const config = loadConfig();
  if (command === 'backup' || command === 'restore') {
    // npm run sets the working folder to the repository; a relative path means the caller's folder.
    const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), process.argv[3]!);
    try {
      if (command === 'backup')
        console.log(`backup written to ${file} (${await backupCommand(config, file)})`);
      else {
        await restoreCommand(config, file);
        console.log(`restored ${file} into ${config.databaseUrl}; start the server on it`);
      }
    } catch (error) {
      console.error((error as Error).message);
      process.exit(1);
    }
    process.exit(0);
  }
  const db = await openDb(config.databaseUrl);
  try {
    const applied = await migrate(db);
    console.log(
      applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date',
    );
    if (command === 'seed') {
      await seedDemoData(db, config.billing);
      if (config.oidc.embedded) await seedDemoIdentities(db);
      console.log('demo data is in place (demo logins only: never use them in production)');
    }
    if (command === 'forget-person') {
      const { rows } = await db.query<{ uuid: string; email: string; name: string }>(
        'select uuid, email, name from users where subject = $1 and deleted_at is null',
        [process.argv[3]],
      );
      const person = rows[0];
      if (!person) console.log('no such person, or already forgotten');
      else {
        // With the embedded sign-in service the subject is the identity's id: it goes too.
        await db.transaction((tx) => erasePerson(tx, person, config.oidc.embedded ? process.argv[3]! : null));
        console.log('the person is forgotten: memberships ended, name and address removed');
      }
    }
  } finally {
    await db.close();
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`${error.message}\nFix the environment variable ${error.variable} and try again.`);
    process.exit(1);
  }
  throw error;
}
