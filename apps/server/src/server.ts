import {
  type Database,
  DataDirLockedError,
  isEmpty,
  migrateDatabase,
  openDatabase,
  seedDemo,
} from '@switchboard/db';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { checkKeyFingerprints, KeyMismatchError } from './lib/key-fingerprint.ts';

async function main(): Promise<void> {
  const started = performance.now();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let database: Database;
  try {
    database = config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl })
      : await openDatabase({ dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  await migrateDatabase(database);
  try {
    await checkKeyFingerprints(database.db, config);
  } catch (error) {
    if (error instanceof KeyMismatchError) {
      console.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }
  if (await isEmpty(database.db)) {
    await seedDemo(database.db);
    console.log('Seeded the demo businesses (logins in README.md; change the passwords).');
  }

  const app = await buildApp(config, { database });
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  try {
    await app.smtp.start();
  } catch (error) {
    console.error(
      `Cannot receive email: SMTP_PORT ${config.email.smtpPort} on ${config.email.smtpHost} is not available (${(error as Error).message}). ` +
        'Set SMTP_PORT to a free port, or SMTP_ENABLED=false.',
    );
    await app.close();
    await database.close();
    process.exit(1);
  }
  const engine = database.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Switchboard is ready on http://${config.host}:${config.port} (${engine}, ${seconds} s)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
