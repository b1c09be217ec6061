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
      'Numbers customers call and text. Tie one to a location to route its calls and messages there.',
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
    description: 'Addresses customers write to. Tie one to a location to route its enquiries there.',
    fieldLabel: 'Email address',
    noun: 'email address',
    placeholder: 'hello@example.com',
    inputMode: 'email',
    rules: [{ required: true, whitespace: true }, { type: 'email' }],
  },
};
