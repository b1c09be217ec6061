import { EventEmitter } from 'node:events';
import type {
  CallEvent,
  EnquiryRow,
  InvoiceDto,
  LocationCounts,
  MessageDto,
  Note,
} from '@switchboard/shared';

/** Domain events, emitted after the transaction that caused them commits. */
export type DomainEvents = {
  'enquiry.created': [{ business_id: string; enquiry: EnquiryRow }];
  'enquiry.updated': [{ business_id: string; enquiry: EnquiryRow }];
  /** A snoozed enquiry's time came: it is back in the open list. */
  'enquiry.woke': [{ business_id: string; enquiry: EnquiryRow }];
  /** A customer wrote again after their enquiry was closed, and so reopened it. */
  'enquiry.reopened': [{ business_id: string; enquiry: EnquiryRow; message: MessageDto }];
  'message.created': [{ business_id: string; location_id: string; message: MessageDto }];
  'message.updated': [{ business_id: string; location_id: string; message: MessageDto }];
  /** A private note was added to an enquiry; `mentioned` are the teammates it names (the author left out). */
  'note.created': [
    { business_id: string; location_id: string; enquiry: EnquiryRow; note: Note; mentioned: string[] },
  ];
  'counts.updated': [{ business_id: string; counts: LocationCounts }];
  'session.revoked': [{ session_id: string }];
  /** Every session of the user was revoked (password change). */
  'user.sessions_revoked': [{ user_id: string }];
  /** The locations a team member works at changed: their screens of that business start again. */
  'member.access_changed': [{ business_id: string; user_id: string }];
  /** A staff member started or stopped typing in an enquiry (the widget forwards it to the visitor). */
  'enquiry.typing': [{ enquiry_id: string; typing: boolean; full_name: string }];
  /** A website visitor started or stopped typing in their chat (staff viewing the enquiry see it). */
  'visitor.typing': [{ enquiry_id: string; visitor_id: string; typing: boolean; full_name: string }];
  /** A channel account was connected, changed or removed: cached look-ups of accounts are dropped. */
  'channels.changed': [{ business_id: string }];
  /** A customer's call started ringing the location; then each change of it. */
  'call.incoming': [{ business_id: string; call: CallEvent }];
  'call.updated': [{ business_id: string; call: CallEvent }];
  /** The assistant handed a conversation to a person: the team at the location is told. */
  'enquiry.handed_off': [{ business_id: string; enquiry: EnquiryRow }];
  /** The business's list of labels changed (made, renamed, recoloured, deleted). */
  'labels.changed': [{ business_id: string }];
  /** An invoice was sent, viewed, paid, refunded, voided or changed. */
  'invoice.updated': [{ business_id: string; invoice: InvoiceDto }];
  /** The business's account changed: email confirmed, plan, trial, payment state, features. */
  'account.changed': [{ business_id: string }];
};

export type EventBus = EventEmitter<DomainEvents>;

export function createEventBus(): EventBus {
  const bus = new EventEmitter<DomainEvents>();
  bus.setMaxListeners(50);
  return bus;
}

/**
 * Events held back while a transaction runs, for code that emits as it goes (`addEventNote`,
 * `closeEnquiryFor`): `release` sends them on the real bus once the transaction has committed, and nothing is
 * sent when it rolls back.
 */
export function heldEvents(): { events: EventBus; release(bus: EventBus): void } {
  const held: [keyof DomainEvents, unknown][] = [];
  const events = createEventBus();
  events.emit = ((name: keyof DomainEvents, payload: unknown) => {
    held.push([name, payload]);
    return true;
  }) as EventBus['emit'];
  return {
    events,
    release(bus) {
      for (const [name, payload] of held.splice(0))
        (bus.emit as (n: string, p: unknown) => boolean)(name, payload);
    },
  };
}
