import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CloseCircleFilled,
  PhoneFilled,
  PhoneOutlined,
} from '@ant-design/icons';
import { type CallItem, formatPhoneAsTyped } from '@switchboard/shared';
import {
  Alert,
  Button,
  Drawer,
  Empty,
  Flex,
  Grid,
  Input,
  List,
  Skeleton,
  Switch,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useContactSearch, useRecentCalls } from '../api/phone-api.ts';
import { usePhoneStore } from '../stores/phone-store.ts';
import { AudioSettings } from './audio-settings.tsx';
import { Keypad } from './keypad.tsx';

const hasLetters = (text: string) => /[a-z@]/i.test(text);

function callTime(iso: string): string {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' })
    : d.toLocaleDateString([], { day: 'numeric', month: 'short' });
}

function statusWord(call: CallItem): string {
  if (call.voicemail) return 'Voicemail';
  if (call.direction === 'in' && !call.answered && call.status !== 'ringing') return 'Missed';
  if (call.status === 'completed' && call.duration !== null)
    return `${Math.floor(call.duration / 60)}:${String(call.duration % 60).padStart(2, '0')}`;
  return call.status.replace('-', ' ');
}

function Recent({ onCall }: { onCall: (number: string, enquiryId: string) => void }) {
  const recent = useRecentCalls(true);
  if (recent.isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (recent.isError)
    return (
      <Alert
        type="error"
        showIcon
        message={failureText(recent.error)}
        action={<Button onClick={() => recent.refetch()}>Try again</Button>}
      />
    );
  if (recent.data.items.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No calls yet." />;
  return (
    <List
      aria-label="Recent calls"
      dataSource={recent.data.items}
      renderItem={(call) => {
        const number = call.direction === 'in' ? call.from : call.to;
        const missed = statusWord(call) === 'Missed';
        return (
          <List.Item
            actions={[
              <Button
                key="call"
                type="text"
                icon={<PhoneOutlined />}
                aria-label={`Call ${call.customer.name ?? number}`}
                onClick={() => onCall(number, call.enquiry_id)}
              />,
            ]}
          >
            <List.Item.Meta
              avatar={
                call.direction === 'in' ? (
                  <ArrowDownOutlined
                    aria-label="Incoming"
                    style={{ color: missed ? '#cf1322' : undefined }}
                  />
                ) : (
                  <ArrowUpOutlined aria-label="Outgoing" />
                )
              }
              title={
                <span style={{ color: missed ? '#cf1322' : undefined }}>{call.customer.name ?? number}</span>
              }
              description={`${statusWord(call)} · ${callTime(call.created_at)}`}
            />
          </List.Item>
        );
      }}
    />
  );
}

function DialPad() {
  const dialed = usePhoneStore((s) => s.dialed);
  const dispatch = usePhoneStore((s) => s.dispatch);
  const dial = usePhoneStore((s) => s.dial);
  const search = hasLetters(dialed) ? dialed.trim() : '';
  const contacts = useContactSearch(search);
  const set = (value: string) =>
    dispatch({ type: 'dialed.changed', number: hasLetters(value) ? value : formatPhoneAsTyped(value) });
  const call = (number = dialed, enquiryId?: string) => {
    if (!number.trim() || hasLetters(number)) return;
    void dial(number, enquiryId);
  };

  return (
    <Flex vertical gap={12}>
      <Input
        size="large"
        aria-label="Number or name to call"
        placeholder="Type a number or a name"
        value={dialed}
        inputMode="tel"
        autoComplete="off"
        allowClear={{ clearIcon: <CloseCircleFilled aria-label="Clear" /> }}
        onChange={(e) => set(e.target.value)}
        onPressEnter={() => call()}
        style={{ fontSize: 20, textAlign: 'center' }}
      />
      {search.length >= 2 && (
        <List
          aria-label="Matching customers"
          size="small"
          loading={contacts.isFetching && !contacts.data}
          locale={{ emptyText: 'No customer matches.' }}
          dataSource={(contacts.data?.items ?? []).flatMap((c) =>
            c.phone ? [{ ...c, phone: c.phone }] : [],
          )}
          renderItem={(c) => (
            <List.Item
              actions={[
                <Button
                  key="call"
                  type="text"
                  icon={<PhoneOutlined />}
                  aria-label={`Call ${c.name ?? c.phone}`}
                  onClick={() => call(c.phone)}
                />,
              ]}
            >
              <List.Item.Meta title={c.name ?? c.phone} description={c.phone} />
            </List.Item>
          )}
        />
      )}
      {contacts.isError && <Alert type="error" showIcon message={failureText(contacts.error)} />}
      <Keypad label="Keypad" onKey={(key) => set(dialed + key)} />
      <Button
        type="primary"
        size="large"
        icon={<PhoneFilled />}
        disabled={!dialed.trim() || hasLetters(dialed)}
        onClick={() => call()}
        style={{ background: dialed.trim() && !hasLetters(dialed) ? '#389e0d' : undefined }}
      >
        Call
      </Button>
    </Flex>
  );
}

/** Whether this person is rung for the location's calls. */
export function AvailabilitySwitch() {
  const available = usePhoneStore((s) => s.available);
  const busy = usePhoneStore((s) => s.busy);
  const goAvailable = usePhoneStore((s) => s.goAvailable);
  const goAway = usePhoneStore((s) => s.goAway);
  return (
    <Flex align="center" gap={8}>
      <Switch
        checked={available}
        loading={busy}
        aria-label="Available for calls"
        checkedChildren="Available"
        unCheckedChildren="Away"
        onChange={(on) => void (on ? goAvailable() : goAway())}
      />
    </Flex>
  );
}

/** The dialer: keypad and contact search, recent calls, audio devices; and the available/away switch. */
export function Dialer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const screens = Grid.useBreakpoint();
  const error = usePhoneStore((s) => s.error);
  const lastEnded = usePhoneStore((s) => s.lastEnded);
  const setup = usePhoneStore((s) => s.setup);
  const dial = usePhoneStore((s) => s.dial);
  const [tab, setTab] = useState('keypad');
  return (
    <Drawer
      title={
        <Flex align="center" justify="space-between" gap={8}>
          <span>Phone</span>
          <AvailabilitySwitch />
        </Flex>
      }
      open={open}
      onClose={onClose}
      width={screens.sm === false ? '100%' : 380}
      destroyOnHidden={false}
      styles={{ body: { paddingTop: 8 } }}
    >
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          closable
          onClose={() => usePhoneStore.setState({ error: null })}
          style={{ marginBottom: 12 }}
        />
      )}
      {lastEnded && !error && (
        <Typography.Paragraph type="secondary" role="status" style={{ marginBottom: 8 }}>
          {lastEnded}
        </Typography.Paragraph>
      )}
      {setup?.number && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
          Customers see calls from {setup.number}
          {setup.provider === 'sandbox' ? ' (sandbox: the Sandbox page plays the customer)' : ''}.
        </Typography.Paragraph>
      )}
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'keypad', label: 'Keypad', children: <DialPad /> },
          {
            key: 'recent',
            label: 'Recent',
            children: tab === 'recent' && <Recent onCall={(n, enquiryId) => void dial(n, enquiryId)} />,
          },
          { key: 'audio', label: 'Audio', children: <AudioSettings /> },
        ]}
      />
    </Drawer>
  );
}
