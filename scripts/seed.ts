// `npm run seed`: resets the database (embedded, or DATABASE_URL) to the demo businesses.
import { migrateDatabase, openDatabase, seedDemo } from '@switchboard/db';
import { loadConfig } from '../apps/server/src/config.ts';

const config = loadConfig();
const database = config.databaseUrl
  ? await openDatabase({ databaseUrl: config.databaseUrl })
  : await openDatabase({ dataDir: config.dataDir });
await migrateDatabase(database);
await seedDemo(database.db);
await database.close();
console.log('Demo data reset: Harbourside Dental and Northside Plumbing (password demo1234).');
