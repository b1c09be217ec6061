import {
  AudioMutedOutlined,
  AudioOutlined,
  CompressOutlined,
  ExpandOutlined,
  NumberOutlined,
  PauseCircleOutlined,
  PhoneFilled,
  PlayCircleOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { Button, Card, Dropdown, Flex, List, Modal, Popover, Tag, Tooltip, Typography, theme } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { usePublishedHeight } from '@/lib/use-published-height.ts';
import { useAvailableAt, useCallHistory, useTeammates } from '../api/phone-api.ts';
import { usePhoneStore } from '../stores/phone-store.ts';
import { Keypad } from './keypad.tsx';

const HANG_UP_STYLE = { background: '#cf1322', borderColor: '#cf1322', color: '#fff' } as const;
const ANSWER_STYLE = { background: '#389e0d', borderColor: '#389e0d', color: '#fff' } as const;

/** Calls ringing this browser, oldest first, each with answer and decline; they stack when several ring. */
export function IncomingCalls() {
  const { token } = theme.useToken();
  const queue = usePhoneStore((s) => s.queue);
  const status = usePhoneStore((s) => s.status);
  const answer = usePhoneStore((s) => s.answer);
  const decline = usePhoneStore((s) => s.decline);
  if (queue.length === 0) return null;
  return (
    <section className="phone-toasts" aria-label="Incoming calls">
      {queue.map((call) => {
        const who = call.caller_name ?? call.parameters.From;
        return (
          <div
            key={call.parameters.CallSid}
            role="alertdialog"
            aria-label={`${who} is calling`}
            className="phone-toast"
            style={{ background: token.colorBgElevated, boxShadow: token.boxShadowSecondary }}
          >
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {status === 'incoming' ? 'Incoming call' : 'Waiting call'}
            </Typography.Text>
            <Typography.Title level={5} style={{ margin: '2px 0' }} ellipsis>
              {who}
            </Typography.Title>
            {call.caller_name && call.caller_name !== call.parameters.From && (
              <Typography.Text type="secondary" style={{ display: 'block' }}>
                {call.parameters.From}
              </Typography.Text>
            )}
            <Flex gap={8} justify="space-between" align="center" style={{ marginTop: 8 }}>
              {call.enquiry_id ? (
                <Link to={`/inbox/${encodeURIComponent(call.enquiry_id)}`}>Conversation</Link>
              ) : (
                <span />
              )}
              <Flex gap={8}>
                <Button onClick={() => decline(call.parameters.CallSid)} style={HANG_UP_STYLE}>
                  Decline
                </Button>
                <Button
                  icon={<PhoneFilled />}
                  onClick={() => void answer(call.parameters.CallSid)}
                  style={ANSWER_STYLE}
                >
                  Answer
                </Button>
              </Flex>
            </Flex>
          </div>
        );
      })}
    </section>
  );
}

/** Hands the call to a teammate: their browser rings, and this one leaves the call once they are rung. */
function TransferButton({ size }: { size: 'large' | 'middle' }) {
  const [open, setOpen] = useState(false);
  const teammates = useTeammates(open);
  const selfId = usePhoneStore((s) => s.selfId);
  const transfer = usePhoneStore((s) => s.transfer);
  const available = useAvailableAt(
    usePhoneStore((s) => s.locationId),
    open,
  );
  const others = (teammates.data ?? []).filter((m) => m.user_id !== selfId);
  // Only someone available for the location's calls can be rung; the others are shown, marked away.
  const away = (id: string) => Boolean(available.data) && !available.data?.includes(id);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: teammates.isPending
          ? [{ key: 'loading', label: 'Loading teammates…', disabled: true }]
          : others.length === 0
            ? [{ key: 'none', label: 'No teammates to transfer to', disabled: true }]
            : others.map((m) => ({
                key: m.user_id,
                disabled: away(m.user_id),
                label: (
                  <Flex justify="space-between" gap={12}>
                    <span>{m.full_name || m.email}</span>
                    {available.data && (
                      <Tag color={away(m.user_id) ? undefined : 'green'} style={{ marginInlineEnd: 0 }}>
                        {away(m.user_id) ? 'Away' : 'Available'}
                      </Tag>
                    )}
                  </Flex>
                ),
              })),
        onClick: ({ key }) => {
          setOpen(false);
          void transfer(key);
        },
      }}
    >
      <Tooltip title="Transfer">
        <Button size={size} shape="circle" aria-label="Transfer" icon={<SwapOutlined />} />
      </Tooltip>
    </Dropdown>
  );
}

function CallControls({ large }: { large?: boolean }) {
  const muted = usePhoneStore((s) => s.muted);
  const held = usePhoneStore((s) => s.held);
  const toggleMute = usePhoneStore((s) => s.toggleMute);
  const toggleHold = usePhoneStore((s) => s.toggleHold);
  const sendDigits = usePhoneStore((s) => s.sendDigits);
  const hangUp = usePhoneStore((s) => s.hangUp);
  const size = large ? 'large' : 'middle';
  return (
    <Flex gap={8} wrap justify="center">
      <Tooltip title={muted ? 'Unmute' : 'Mute'}>
        <Button
          size={size}
          shape="circle"
          aria-pressed={muted}
          aria-label={muted ? 'Unmute' : 'Mute'}
          icon={muted ? <AudioMutedOutlined /> : <AudioOutlined />}
          onClick={toggleMute}
          type={muted ? 'primary' : 'default'}
        />
      </Tooltip>
      <Tooltip title={held ? 'Resume' : 'Hold'}>
        <Button
          size={size}
          shape="circle"
          aria-pressed={held}
          aria-label={held ? 'Resume' : 'Hold'}
          icon={held ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
          onClick={toggleHold}
          type={held ? 'primary' : 'default'}
        />
      </Tooltip>
      <Popover
        trigger="click"
        content={
          <div style={{ width: 220 }}>
            <Keypad label="Keys to send" onKey={sendDigits} />
          </div>
        }
      >
        <Button size={size} shape="circle" aria-label="Keypad" icon={<NumberOutlined />} />
      </Popover>
      <TransferButton size={size} />
      <Button size={size} icon={<PhoneFilled rotate={135} />} onClick={hangUp} style={HANG_UP_STYLE}>
        Hang up
      </Button>
    </Flex>
  );
}

function useCallHeadline() {
  const status = usePhoneStore((s) => s.status);
  const type = usePhoneStore((s) => s.type);
  const active = usePhoneStore((s) => s.active);
  const dialed = usePhoneStore((s) => s.dialed);
  const duration = usePhoneStore((s) => s.duration);
  const held = usePhoneStore((s) => s.held);
  const who = active?.caller_name ?? (type === 'incoming' ? active?.parameters.From : dialed) ?? dialed;
  const state =
    status === 'connecting'
      ? 'Connecting…'
      : held
        ? `On hold · ${duration}`
        : duration === '00:00' && type === 'outgoing'
          ? 'Ringing…'
          : duration;
  return { who, state, enquiryId: active?.enquiry_id ?? null };
}

/** The call under way, on every page: who, how long, and its controls. */
export function CallBar() {
  const { token } = theme.useToken();
  const status = usePhoneStore((s) => s.status);
  const fullScreen = usePhoneStore((s) => s.fullScreen);
  const dispatch = usePhoneStore((s) => s.dispatch);
  const { who, state } = useCallHeadline();
  const error = usePhoneStore((s) => s.error);
  // Pages that fill the window (the inbox and its reply box) end above the bar rather than under it.
  const ref = useRef<HTMLElement>(null);
  usePublishedHeight(ref, '--app-callbar-space');
  if (status !== 'connecting' && status !== 'calling') return null;
  return (
    <section
      ref={ref}
      aria-label="Call in progress"
      className="phone-call-bar"
      style={{ background: token.colorBgElevated, boxShadow: token.boxShadowSecondary }}
    >
      <Flex vertical className="phone-who">
        <Typography.Text strong ellipsis>
          {who}
        </Typography.Text>
        <Typography.Text type="secondary" role="timer" aria-label="Call time" style={{ fontSize: 12 }}>
          {state}
        </Typography.Text>
      </Flex>
      <CallControls />
      {error && (
        <Typography.Text type="danger" role="alert" style={{ flexBasis: '100%', textAlign: 'center' }}>
          {error}
        </Typography.Text>
      )}
      <Button
        type="text"
        aria-label="Full screen"
        icon={<ExpandOutlined />}
        onClick={() => dispatch({ type: 'fullScreen.set', fullScreen: !fullScreen })}
      />
    </section>
  );
}

/** The call on the whole screen: the caller, their conversation so far, and the controls. */
export function CallScreen() {
  const status = usePhoneStore((s) => s.status);
  const fullScreen = usePhoneStore((s) => s.fullScreen);
  const dispatch = usePhoneStore((s) => s.dispatch);
  const { who, state, enquiryId } = useCallHeadline();
  const history = useCallHistory(fullScreen ? enquiryId : null);
  const open = fullScreen && (status === 'connecting' || status === 'calling');
  const close = () => dispatch({ type: 'fullScreen.set', fullScreen: false });
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      width="100%"
      style={{ top: 0, maxWidth: '100vw', padding: 0 }}
      styles={{ container: { minHeight: '100vh', borderRadius: 0 } }}
      title={null}
      closable={false}
    >
      <Flex justify="flex-end">
        <Button type="text" icon={<CompressOutlined />} onClick={close}>
          Leave full screen
        </Button>
      </Flex>
      <Flex vertical align="center" gap={16} style={{ maxWidth: 640, margin: '0 auto', paddingTop: 32 }}>
        <Typography.Title level={2} style={{ margin: 0, textAlign: 'center', wordBreak: 'break-word' }}>
          {who}
        </Typography.Title>
        <Typography.Text type="secondary" style={{ fontSize: 18 }}>
          {state}
        </Typography.Text>
        <CallControls large />
        {enquiryId && (
          <Card
            size="small"
            title="Their conversation"
            extra={
              <Link to={`/inbox/${encodeURIComponent(enquiryId)}`} onClick={close}>
                Open
              </Link>
            }
            style={{ width: '100%' }}
          >
            <List
              size="small"
              loading={history.isPending}
              locale={{ emptyText: 'Nothing said before this call.' }}
              dataSource={[...(history.data?.items ?? [])].reverse()}
              renderItem={(m) => (
                <List.Item>
                  <Flex vertical style={{ minWidth: 0 }}>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {m.direction === 'in' ? 'Customer' : (m.team_user?.full_name ?? 'Business')} ·{' '}
                      {new Date(m.created_at).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}{' '}
                      <Tag style={{ marginInlineStart: 4 }}>{m.channel.replace('_', ' ')}</Tag>
                    </Typography.Text>
                    <Typography.Text style={{ wordBreak: 'break-word' }}>{m.message}</Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
          </Card>
        )}
      </Flex>
    </Modal>
  );
}
