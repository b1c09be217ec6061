export * from './attachments.ts';
export * from './business-hours.ts';
export * from './call-state.ts';
export * from './call-text.ts';
export * from './channels.ts';
export * from './customer-name.ts';
export * from './date-range.ts';
export * from './error-code.ts';
export * from './feature-flags.ts';
export * from './file-size.ts';
export * from './form-messages.ts';
export * from './invoice-totals.ts';
export * from './marketing.ts';
export * from './money.ts';
export * from './opening-hours.ts';
export * from './placeholders.ts';
export * from './readable-accent.ts';
export * from './sample-invoice.ts';
export * from './sending-allowed.ts';
export * from './sending-hours.ts';
export * from './session-id.ts';
export * from './subscription-status.ts';
export * from './tax-rules.ts';
export * from './text-cut.ts';
export * from './tracking.ts';
export * from './trial-days.ts';
export * from './validators.ts';
export type { CalendarDay, DateInput } from './zoned-day.ts';
export {
  addDays,
  calendarDayIn,
  daysBetween,
  endOfDayIn,
  formatInZone,
  MS_PER_DAY,
  startOfDayIn,
} from './zoned-day.ts';
