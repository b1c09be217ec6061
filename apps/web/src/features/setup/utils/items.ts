import type { SetupChecklistJson, SetupItemKey } from '@switchboard/shared';
import { phoneText } from '../../../lib/phones.ts';

/** What each item asks for, what the business sees once it is done, the button, and what staff are told. */
export const SETUP_TEXTS: Record<
  SetupItemKey,
  { title: string; outcome: string; action: string; askOwner: string }
> = {
  number: {
    title: 'Get a number customers can text',
    outcome: 'Texts to your number arrive in this inbox, and you reply to them from here.',
    action: 'Get a number',
    askOwner: 'Ask the owner to get a phone number for texting.',
  },
  chat: {
    title: 'Put the chat on your website',
    outcome: 'Visitors to your website chat with you from any page, and their chats arrive here.',
    action: 'Website chat settings',
    askOwner: 'Ask the owner to add the chat to your website.',
  },
  team: {
    title: 'Invite your team',
    outcome: 'Your teammates answer customers with you, and you can hand enquiries to them.',
    action: 'Invite a teammate',
    askOwner: 'Ask the owner to invite your teammates.',
  },
  assistant: {
    title: 'Teach the assistant',
    outcome: 'The assistant answers common questions from your FAQs, day and night.',
    action: 'Add an FAQ',
    askOwner: 'Ask the owner to add FAQs for the assistant.',
  },
  payments: {
    title: 'Connect Stripe for card payments',
    outcome: 'Invoices you send have a Pay button, and the money goes to your bank account.',
    action: 'Connect Stripe',
    askOwner: 'Ask the owner to connect Stripe.',
  },
  review_link: {
    title: 'Set your review link',
    outcome: 'Review requests take happy customers straight to the page where they leave a review.',
    action: 'Set the review link',
    askOwner: 'Ask the owner to set the review link.',
  },
  hours: {
    title: 'Set your opening hours',
    outcome: 'The website chat tells visitors whether you are open and when to expect a reply.',
    action: 'Set opening hours',
    askOwner: 'Ask the owner to set the opening hours.',
  },
};

/** "3 of 7 done", and whether every item is. */
export function setupProgress(setup: Pick<SetupChecklistJson, 'items'>): {
  done: number;
  total: number;
  text: string;
  complete: boolean;
} {
  const total = setup.items.length;
  const done = setup.items.filter((i) => i.done).length;
  return { done, total, text: `${done} of ${total} done`, complete: total > 0 && done === total };
}

/** The test text to try once there is a number: from a phone, or from the simulator for a sandbox number. */
export function testMessageLine(number: NonNullable<SetupChecklistJson['number']>): string {
  return number.sandbox
    ? `Text HELLO to ${phoneText(number.phone)} from the sandbox phone; it will appear here.`
    : `Text HELLO to ${phoneText(number.phone)} from your phone; it will appear here.`;
}

/**
 * Where the inbox stands for a business: the checklist while it has no enquiries and the owner has not put it
 * away, a plain "all set" once every item is done, else the inbox's own empty state.
 */
export function inboxWelcome(setup: SetupChecklistJson | undefined): 'checklist' | 'all-set' | 'none' {
  if (!setup || setup.has_enquiries || setup.dismissed_at) return 'none';
  return setupProgress(setup).complete ? 'all-set' : 'checklist';
}
