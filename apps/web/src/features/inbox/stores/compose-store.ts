import { create } from 'zustand';
import type { ComposeChannel } from '../types.ts';

export type ComposeContact = { channel: ComposeChannel; phone: string; email: string; name: string };

const EMPTY_CONTACT: ComposeContact = { channel: 'sms', phone: '', email: '', name: '' };

type ComposeState = {
  /** Compose mode: writing to someone who is not (yet) in the list. */
  composing: boolean;
  contact: ComposeContact;
  /** Spec §4: turning compose mode on clears the compose contact. */
  startComposing: () => void;
  stopComposing: () => void;
  setContact: (patch: Partial<ComposeContact>) => void;
};

export const useComposeStore = create<ComposeState>()((set) => ({
  composing: false,
  contact: EMPTY_CONTACT,
  startComposing: () => set({ composing: true, contact: EMPTY_CONTACT }),
  stopComposing: () => set({ composing: false }),
  setContact: (patch) => set((s) => ({ contact: { ...s.contact, ...patch } })),
}));
