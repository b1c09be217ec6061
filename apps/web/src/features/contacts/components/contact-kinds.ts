import type { Rule } from 'antd/es/form';
import type { ContactKind } from '../types.ts';

export type ContactKindConfig = {
  kind: ContactKind;
  field: 'phone' | 'email';
  title: string;
  description: string;
  fieldLabel: string;
  noun: string;
  placeholder: string;
  inputMode: 'tel' | 'email';
  rules: Rule[];
};

// Digits with an optional leading +, allowing the spaces, dashes and brackets people type.
const PHONE_PATTERN = /^\+?[\d\s\-()]{6,20}$/;

export const CONTACT_KINDS: Record<ContactKind, ContactKindConfig> = {
  phone: {
    kind: 'phone',
    field: 'phone',
    title: 'Phone numbers',
    description:
      'The numbers you publish (on your website, cards and signs), each tied to a location if you like. The numbers customers actually text each location on, and the one new conversations start from, are listed under Channels & forms.',
    fieldLabel: 'Phone number',
    noun: 'phone number',
    placeholder: '+61 491 570 156',
    inputMode: 'tel',
    rules: [
      { required: true, whitespace: true },
      { pattern: PHONE_PATTERN, message: 'Enter the number with its country code, such as +61 491 570 156' },
    ],
  },
  email: {
    kind: 'email',
    field: 'email',
    title: 'Email addresses',
    description:
      'The addresses you publish, each tied to a location if you like. The addresses customers actually write to each location on, and the one new emails are sent from, are listed under Channels & forms.',
    fieldLabel: 'Email address',
    noun: 'email address',
    placeholder: 'hello@example.com',
    inputMode: 'email',
    rules: [{ required: true, whitespace: true }, { type: 'email' }],
  },
};
