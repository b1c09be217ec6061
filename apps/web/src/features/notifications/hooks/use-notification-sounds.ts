import type { EnquiryRow, MessageDto, UserMe } from '@switchboard/shared';
import { useEffect, useRef } from 'react';
import { useSocket } from '@/lib/use-socket.ts';
import { ringtoneFor, type SoundKind, type SoundSettings, shouldPlaySound } from '../utils/sound-rules.ts';
import { playRingtone, unlockAudioOnFirstGesture } from '../utils/sounds.ts';

// A customer's first message fires enquiry.created and message.created together: one sound, not two.
const FIRST_MESSAGE_WINDOW_MS = 5000;

function permission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export function soundSettingsOf(me: UserMe): SoundSettings {
  return {
    enableNotifications: me.enable_notifications,
    enableEnquiryNotification: me.enable_enquiry_notification,
    enableMessageNotification: me.enable_message_notification,
    ringtoneEnquiry: me.ringtone_enquiry,
    ringtoneMessage: me.ringtone_message,
  };
}

/**
 * A new enquiry or a customer's message sounds on every page of the app, by spec §4's rule (tab out of sight,
 * notifications and the kind on, permission granted), with the person's chosen sound.
 */
export function useNotificationSounds(settings: SoundSettings | null): void {
  const { socket } = useSocket();
  const settingsRef = useRef(settings);
  settingsRef.current = settings;

  useEffect(() => unlockAudioOnFirstGesture(), []);

  useEffect(() => {
    if (!socket) return;
    const justCreated = new Map<string, number>();
    const sound = (kind: SoundKind) => {
      const current = settingsRef.current;
      if (!current) return;
      const hidden = document.visibilityState === 'hidden';
      if (shouldPlaySound({ kind, settings: current, hidden, permission: permission() })) {
        playRingtone(ringtoneFor(kind, current));
      }
    };
    const onEnquiryCreated = (row: EnquiryRow) => {
      // A staff member starting a conversation creates a read enquiry; a customer's is unread.
      if (row.seen) return;
      justCreated.set(row.id, Date.now());
      sound('enquiry');
    };
    const onMessageCreated = (message: MessageDto) => {
      if (message.direction !== 'in') return;
      const created = justCreated.get(message.enquiry_id);
      justCreated.delete(message.enquiry_id);
      if (created && Date.now() - created < FIRST_MESSAGE_WINDOW_MS) return;
      sound('message');
    };
    socket.on('enquiry.created', onEnquiryCreated);
    socket.on('message.created', onMessageCreated);
    return () => {
      socket.off('enquiry.created', onEnquiryCreated);
      socket.off('message.created', onMessageCreated);
    };
  }, [socket]);
}
