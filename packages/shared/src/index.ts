export * from './constants.ts';
export * from './rules/index.ts';
export * from './contracts/index.ts';
