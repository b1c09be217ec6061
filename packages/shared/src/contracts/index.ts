export * from './inbox.ts';
export * from './widget.ts';
