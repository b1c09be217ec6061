export * from './constants.ts';
export * from './contracts/index.ts';
export * from './rules/index.ts';
