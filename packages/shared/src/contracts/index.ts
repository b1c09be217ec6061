export * from './channels.ts';
export * from './fields.ts';
export * from './ids.ts';
export * from './inbox.ts';
export * from './intake-limits.ts';
export * from './templates.ts';
export * from './user.ts';
export * from './widget.ts';
