export * from './inbox.ts';
