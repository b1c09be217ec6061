import { clipText } from '@switchboard/shared';

/** The audit log's lines in words: what was done, and the detail worth reading. */
export type AuditText = { what: string; detail: string };

const HOW: Record<string, string> = {
  console: 'from the Switchboard admin console',
  switch: 'by switching to this business',
  login: 'when signing in',
};

const PROVIDERS: Record<string, string> = {
  twilio: 'Twilio',
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  instagram: 'Instagram',
  google_rcs: 'Google RCS',
};

/** A US number's A2P 10DLC registration, as an administrator records it. */
const REGISTRATION_WORDS: Record<string, string> = {
  required: 'registration required, not started',
  pending: 'registration under review',
  approved: 'registered with US carriers',
  rejected: 'registration rejected',
};

const record = (detail: unknown): Record<string, unknown> =>
  detail && typeof detail === 'object' ? (detail as Record<string, unknown>) : {};

/** `location.create` → "location create"; the detail as compact text. */
function plain(action: string, detail: unknown): AuditText {
  const text = detail === null || detail === undefined ? '' : JSON.stringify(detail);
  return {
    what: action.replaceAll('.', ' ').replaceAll('_', ' '),
    detail: clipText(text, 160, '…'),
  };
}

/**
 * The lines an owner most needs to understand are said in words: a Switchboard administrator coming into the
 * business (and how), a channel disconnected because another business proved its address is theirs, and a
 * number's carrier registration recorded by an administrator.
 * Every other line keeps its action name and detail.
 */
export function auditText(action: string, detail: unknown): AuditText {
  const d = record(detail);
  switch (action) {
    case 'admin.business.open': {
      const how = typeof d.how === 'string' ? HOW[d.how] : undefined;
      return {
        what: 'Switchboard administrator entered the business',
        detail: how ? `Came in ${how}.` : 'Came in from the Switchboard admin console.',
      };
    }
    case 'channel.displaced': {
      const provider = (typeof d.provider === 'string' && PROVIDERS[d.provider]) || 'the provider';
      const address = typeof d.address === 'string' ? d.address : 'its address';
      return {
        what: 'Channel disconnected',
        detail: `Another business showed ${provider} that ${address} is theirs. Check the account under Channels & forms.`,
      };
    }
    case 'admin.number.registration': {
      const number = typeof d.phone_number === 'string' ? d.phone_number : 'A number';
      const to = typeof d.to === 'string' ? REGISTRATION_WORDS[d.to] : undefined;
      return {
        what: 'Switchboard administrator recorded a number’s carrier registration',
        detail: to ? `${number}: ${to}.` : `${number}: changed.`,
      };
    }
    default:
      return plain(action, detail);
  }
}
