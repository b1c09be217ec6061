import { SoundOutlined, UploadOutlined } from '@ant-design/icons';
import { NOTIFICATION_SOUNDS, UPLOADED_SOUND, type UpdateMeRequest, type UserMe } from '@switchboard/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Flex, Select, Space, Switch, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { api, type Envelope } from '@/lib/api-client.ts';
import { isApiError } from '@/lib/api-error.ts';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import {
  PushSetupError,
  type PushState,
  pushState,
  pushUnsupported,
  turnOffPush,
  turnOnPush,
} from '@/lib/push.ts';
import { useUpdateMe } from '@/lib/update-me.ts';
import { LONG_POP, soundsBlockedText } from '../utils/sound-rules.ts';
import { playRingtone, SOUND_LABELS } from '../utils/sounds.ts';

/** The longest sound file offered for upload (the server refuses more). */
const SOUND_MAX_BYTES = 1024 * 1024;
const SOUND_TYPES = 'audio/mpeg,audio/mp4,audio/ogg,audio/wav,.mp3,.m4a,.ogg,.wav';

const PUSH_TEXT: Record<PushState, string> = {
  unsupported: '',
  denied:
    'This browser blocks notifications from Switchboard. To allow them, open the site settings (the icon left of the address) and set Notifications to Allow, then come back here.',
  default: 'This browser does not show Switchboard notifications yet.',
  off: 'Notifications are allowed in this browser but it is not signed up for them.',
  on: 'This browser shows a notification for each new enquiry and message while no Switchboard tab is in sight.',
};

/** This browser's notifications: allowed or not, signed up or not, and the way to change it. */
function BrowserNotifications() {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: ['push', 'state'], queryFn: pushState });
  const [problem, setProblem] = useState<string | null>(null);
  const change = useMutation({
    // What the browser or the server refused is said on the page (a refusal is not a bug of ours).
    mutationFn: async (on: boolean): Promise<{ state?: PushState; problem?: string }> => {
      try {
        if (!on) {
          await turnOffPush();
          return { state: 'off' };
        }
        return { state: await turnOnPush() };
      } catch (error) {
        if (error instanceof PushSetupError) return { problem: error.message };
        if (isApiError(error)) return { problem: failureText(error) };
        throw error;
      }
    },
    onMutate: () => setProblem(null),
    onSuccess: ({ state: next, problem: refused }) => {
      if (refused) {
        setProblem(refused);
        return;
      }
      if (!next) return;
      queryClient.setQueryData(['push', 'state'], next);
      if (next === 'on') notify.success('This browser will show notifications.');
      if (next === 'off') notify.success('This browser will no longer show notifications.');
    },
  });
  const unsupported = pushUnsupported();
  const current = state.data;
  return (
    <Panel title="This browser">
      <Flex vertical gap={12}>
        {unsupported ? (
          <Alert
            type="warning"
            showIcon
            title={unsupported}
            description={
              typeof Notification !== 'undefined' && Notification.permission === 'granted'
                ? 'Sounds still play while a tab is open.'
                : undefined
            }
          />
        ) : (
          <>
            {current && (
              <Typography.Text type={current === 'denied' ? 'warning' : undefined}>
                {PUSH_TEXT[current]}
              </Typography.Text>
            )}
            {problem && current !== 'denied' && <Alert type="error" showIcon title={problem} role="alert" />}
            <div>
              {current === 'on' ? (
                <Button loading={change.isPending} onClick={() => change.mutate(false)}>
                  Stop notifications in this browser
                </Button>
              ) : (
                <Button
                  type="primary"
                  loading={change.isPending}
                  disabled={current === 'denied'}
                  onClick={() => change.mutate(true)}
                >
                  Show notifications in this browser
                </Button>
              )}
            </div>
          </>
        )}
      </Flex>
    </Panel>
  );
}

/** A sound for one kind of news: the shipped ones, the person's uploaded one, a preview and an upload. */
function SoundChoice({
  label,
  value,
  onChange,
  pending,
}: {
  label: string;
  value: string | null;
  onChange: (next: string | null) => void;
  pending: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const current = value ?? LONG_POP;
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      const { data } = await api.post<Envelope<{ id: string; name: string }>>('/uploads', form, {
        silent: true,
      });
      return data.body;
    },
  });
  const options = [
    ...NOTIFICATION_SOUNDS.map((s) => ({ value: s, label: SOUND_LABELS[s] })),
    ...(UPLOADED_SOUND.test(current) ? [{ value: current, label: 'Your uploaded sound' }] : []),
  ];
  const pick = async (file: File | undefined) => {
    setProblem(null);
    if (!file) return;
    if (file.size > SOUND_MAX_BYTES) {
      setProblem(`${file.name} is too long: choose a sound file of at most 1 MB.`);
      return;
    }
    try {
      const saved = await upload.mutateAsync(file);
      onChange(`upload:${saved.id}`);
    } catch (error) {
      setProblem(failureText(error));
    }
  };
  const id = `sound-${label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Flex vertical gap={6}>
      <label htmlFor={id}>{label}</label>
      <Space wrap>
        <Select
          id={id}
          style={{ width: 220 }}
          value={current}
          options={options}
          loading={pending}
          onChange={(next) => onChange(next === LONG_POP ? null : next)}
        />
        <Button
          icon={<SoundOutlined />}
          onClick={() => playRingtone(current)}
          aria-label={`Play the ${label.toLowerCase()}`}
        >
          Play
        </Button>
        <Button icon={<UploadOutlined />} loading={upload.isPending} onClick={() => input.current?.click()}>
          Upload a sound
        </Button>
        <input
          ref={input}
          type="file"
          accept={SOUND_TYPES}
          hidden
          aria-label={`Sound file for the ${label.toLowerCase()}`}
          onChange={(e) => {
            void pick(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </Space>
      {problem && <Alert type="error" showIcon title={problem} role="alert" />}
    </Flex>
  );
}

const DIGEST_CHOICES = [
  { value: 0, label: 'Off' },
  { value: 15, label: 'After 15 minutes' },
  { value: 30, label: 'After 30 minutes' },
  { value: 60, label: 'After 1 hour' },
  { value: 120, label: 'After 2 hours' },
  { value: 240, label: 'After 4 hours' },
  { value: 1440, label: 'After a day' },
];

/** Owners: an email listing enquiries no one has answered for the chosen time. */
function DigestChoice({
  me,
  save,
  pending,
}: {
  me: UserMe;
  save: (patch: UpdateMeRequest, done?: string) => void;
  pending: boolean;
}) {
  const current = me.digest_minutes ?? 0;
  const options = DIGEST_CHOICES.some((c) => c.value === current)
    ? DIGEST_CHOICES
    : [...DIGEST_CHOICES, { value: current, label: `After ${current} minutes` }];
  return (
    <Panel title="Unanswered enquiries email">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary">
          Get an email listing the enquiries of your businesses that no one has answered in time, each enquiry
          once.
        </Typography.Text>
        <label htmlFor="digest-minutes">Email me</label>
        <Select
          id="digest-minutes"
          style={{ width: 220 }}
          value={current}
          options={options}
          loading={pending}
          onChange={(minutes) =>
            save({ digest_minutes: minutes || null }, minutes ? 'Email turned on' : 'Email turned off')
          }
        />
      </Flex>
    </Panel>
  );
}

/** What keeps sounds quiet in this browser (no notification permission), read again with the browser's state. */
function SoundsBlocked() {
  // The push state is refetched when the person allows or blocks notifications on this page.
  useQuery({ queryKey: ['push', 'state'], queryFn: pushState });
  const text = soundsBlockedText(
    typeof Notification === 'undefined' ? 'unsupported' : Notification.permission,
  );
  return text ? <Alert type="warning" showIcon title={text} data-testid="sounds-blocked" /> : null;
}

/** Settings → Notifications: what the signed-in person is told of, how it sounds, and this browser's part. */
export function NotificationsPage({ me }: { me: UserMe }) {
  const update = useUpdateMe({ silent: true });
  const [problem, setProblem] = useState<string | null>(null);
  const save = (patch: UpdateMeRequest, done?: string) => {
    setProblem(null);
    update.mutate(patch, {
      onSuccess: () => done && notify.success(done),
      onError: (error) => setProblem(failureText(error)),
    });
  };
  const busy = (key: keyof UpdateMeRequest) => update.isPending && update.variables?.[key] !== undefined;
  return (
    <Flex vertical gap={24}>
      {problem && <Alert type="error" showIcon title={problem} role="alert" />}
      <Panel title="What you are told of">
        <Flex vertical gap={12}>
          <Flex gap={12} align="center">
            <Switch
              aria-label="Notifications"
              checked={me.enable_notifications}
              loading={busy('enable_notifications')}
              onChange={(enable_notifications) => save({ enable_notifications })}
            />
            <span>Notifications and sounds for news from customers</span>
          </Flex>
          <Flex gap={12} align="center" style={{ paddingLeft: 24 }}>
            <Switch
              aria-label="New enquiries"
              checked={me.enable_enquiry_notification}
              disabled={!me.enable_notifications}
              loading={busy('enable_enquiry_notification')}
              onChange={(enable_enquiry_notification) => save({ enable_enquiry_notification })}
            />
            <span>A new enquiry</span>
          </Flex>
          <Flex gap={12} align="center" style={{ paddingLeft: 24 }}>
            <Switch
              aria-label="New messages"
              checked={me.enable_message_notification}
              disabled={!me.enable_notifications}
              loading={busy('enable_message_notification')}
              onChange={(enable_message_notification) => save({ enable_message_notification })}
            />
            <span>A new message in an enquiry</span>
          </Flex>
          <Typography.Text type="secondary">
            Sounds play while Switchboard is open in a tab you are not looking at; notifications show when no
            Switchboard tab is in sight.
          </Typography.Text>
        </Flex>
      </Panel>
      <Panel title="Sounds">
        <Flex vertical gap={16}>
          <SoundsBlocked />
          <SoundChoice
            label="New enquiry sound"
            value={me.ringtone_enquiry}
            pending={busy('ringtone_enquiry')}
            onChange={(ringtone_enquiry) => save({ ringtone_enquiry }, 'Sound saved')}
          />
          <SoundChoice
            label="New message sound"
            value={me.ringtone_message}
            pending={busy('ringtone_message')}
            onChange={(ringtone_message) => save({ ringtone_message }, 'Sound saved')}
          />
        </Flex>
      </Panel>
      <BrowserNotifications />
      {me.businesses.some((b) => b.is_owner) && (
        <DigestChoice me={me} save={save} pending={busy('digest_minutes')} />
      )}
    </Flex>
  );
}
