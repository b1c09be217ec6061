export * from './ids.ts';
export * from './inbox.ts';
export * from './templates.ts';
export * from './user.ts';
export * from './widget.ts';
