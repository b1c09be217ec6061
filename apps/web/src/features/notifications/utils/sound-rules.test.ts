import { describe, expect, it } from 'vitest';
import {
  LONG_POP,
  ringtoneFor,
  type SoundContext,
  type SoundSettings,
  shouldPlaySound,
  soundsBlockedText,
} from './sound-rules.ts';

const on: SoundSettings = {
  enableNotifications: true,
  enableEnquiryNotification: true,
  enableMessageNotification: true,
  ringtoneEnquiry: null,
  ringtoneMessage: null,
};

const context = (over: Partial<SoundContext> = {}): SoundContext => ({
  kind: 'message',
  settings: on,
  hidden: true,
  permission: 'granted',
  ...over,
});

describe('shouldPlaySound (spec §4)', () => {
  it('plays when the tab is hidden, notifications and the kind are on, and permission is granted', () => {
    expect(shouldPlaySound(context())).toBe(true);
    expect(shouldPlaySound(context({ kind: 'enquiry' }))).toBe(true);
  });

  it('stays quiet while the tab is visible', () => {
    expect(shouldPlaySound(context({ hidden: false }))).toBe(false);
  });

  it('stays quiet without browser permission', () => {
    expect(shouldPlaySound(context({ permission: 'default' }))).toBe(false);
    expect(shouldPlaySound(context({ permission: 'denied' }))).toBe(false);
    expect(shouldPlaySound(context({ permission: 'unsupported' }))).toBe(false);
  });

  it("stays quiet when the user's notifications are off", () => {
    expect(shouldPlaySound(context({ settings: { ...on, enableNotifications: false } }))).toBe(false);
  });

  it('follows the setting for each kind', () => {
    const noMessages = { ...on, enableMessageNotification: false };
    expect(shouldPlaySound(context({ kind: 'message', settings: noMessages }))).toBe(false);
    expect(shouldPlaySound(context({ kind: 'enquiry', settings: noMessages }))).toBe(true);
    const noEnquiries = { ...on, enableEnquiryNotification: false };
    expect(shouldPlaySound(context({ kind: 'enquiry', settings: noEnquiries }))).toBe(false);
    expect(shouldPlaySound(context({ kind: 'message', settings: noEnquiries }))).toBe(true);
  });
});

describe('ringtoneFor', () => {
  it('defaults to the long pop', () => {
    expect(ringtoneFor('enquiry', on)).toBe(LONG_POP);
    expect(ringtoneFor('message', { ...on, ringtoneMessage: '  ' })).toBe(LONG_POP);
  });

  it('uses the chosen ringtone file for that kind', () => {
    const settings = { ...on, ringtoneEnquiry: '/sounds/bell.mp3' };
    expect(ringtoneFor('enquiry', settings)).toBe('/sounds/bell.mp3');
    expect(ringtoneFor('message', settings)).toBe(LONG_POP);
  });
});

describe('what the Sounds settings say keeps sounds quiet', () => {
  it('says nothing once the browser may notify, and names the way to allow it otherwise', () => {
    expect(soundsBlockedText('granted')).toBeNull();
    expect(soundsBlockedText('default')).toContain('Show notifications in this browser');
    expect(soundsBlockedText('denied')).toContain('site settings');
    expect(soundsBlockedText('unsupported')).toContain('cannot show notifications');
  });

  it('agrees with the rule: quiet exactly where a reason is given', () => {
    for (const permission of ['granted', 'default', 'denied', 'unsupported'] as const) {
      expect(shouldPlaySound(context({ permission }))).toBe(soundsBlockedText(permission) === null);
    }
  });
});
