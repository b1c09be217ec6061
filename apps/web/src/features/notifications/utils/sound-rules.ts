export type SoundKind = 'enquiry' | 'message';

export type SoundSettings = {
  enableNotifications: boolean;
  enableEnquiryNotification: boolean;
  enableMessageNotification: boolean;
  ringtoneEnquiry: string | null;
  ringtoneMessage: string | null;
};

export type SoundContext = {
  kind: SoundKind;
  settings: SoundSettings;
  /** document.visibilityState === 'hidden' */
  hidden: boolean;
  /** Notification.permission, or 'unsupported' where the browser has no Notification API. */
  permission: NotificationPermission | 'unsupported';
};

/**
 * Spec §4: a sound plays only when the tab is not visible, the user's notifications are on, this kind
 * (enquiry or message) is on, and the browser's notification permission is granted.
 */
export function shouldPlaySound({ kind, settings, hidden, permission }: SoundContext): boolean {
  if (!hidden || permission !== 'granted' || !settings.enableNotifications) return false;
  return kind === 'enquiry' ? settings.enableEnquiryNotification : settings.enableMessageNotification;
}

export const LONG_POP = 'long-pop';

/** Spec §4: the default ringtone is a long pop; otherwise the chosen ringtone file. */
export function ringtoneFor(kind: SoundKind, settings: SoundSettings): string {
  const chosen = kind === 'enquiry' ? settings.ringtoneEnquiry : settings.ringtoneMessage;
  return chosen?.trim() ? chosen : LONG_POP;
}

/**
 * Why sounds stay quiet in this browser, for the Sounds settings, or null when they can play: the rule above
 * needs the browser's notification permission, so a person who chose a sound is told what stands in its way.
 */
export function soundsBlockedText(permission: NotificationPermission | 'unsupported'): string | null {
  switch (permission) {
    case 'granted':
      return null;
    case 'default':
      return 'Sounds play once this browser may show Switchboard notifications: choose “Show notifications in this browser” below.';
    case 'denied':
      return 'This browser blocks notifications from Switchboard, so its sounds stay quiet too. Allow notifications in the site settings (the icon left of the address) to hear them.';
    case 'unsupported':
      return 'This browser cannot show notifications, so sounds stay quiet in it. On a phone, add Switchboard to the home screen; on a computer, use a current browser.';
  }
}
