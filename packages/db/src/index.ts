export * from './client.ts';
export * from './jobs.ts';
export * from './passwords.ts';
export * as schema from './schema.ts';
export * from './schema.ts';
export * from './seed.ts';
export * from './upkeep.ts';
