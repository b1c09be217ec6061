export * from './inbox.ts';
export * from './widget.ts';
export * from './user.ts';
