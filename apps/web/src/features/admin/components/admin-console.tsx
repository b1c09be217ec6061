import { FEATURE_FLAG_NAMES, FEATURE_FLAGS, type FeatureFlag } from '@switchboard/shared';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Flex,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { SearchField } from '@/components/search-field.tsx';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import {
  type AdminBusiness,
  type AdminNumber,
  useAdminBusinesses,
  useAdminNumbers,
  useClearCache,
  useOpenBusiness,
  useRecordRegistration,
  useUpdateBusiness,
} from '../api.ts';
import { signupFacts } from '../utils/signup-facts.ts';
import { AuditLog } from './audit-log.tsx';

const STATUS_COLOURS: Record<string, string> = {
  trial: 'blue',
  monthly: 'green',
  annual: 'green',
  payment_failed: 'orange',
  trial_expired: 'red',
  monthly_subscription_expired: 'red',
  annual_subscription_expired: 'red',
};
const day = (iso: string | null) => (iso ? dayText(iso, 'short') : '—');
const DAY_MS = 86_400_000;

const REGISTRATION_OPTIONS = [
  { value: 'required', label: 'Not started' },
  { value: 'pending', label: 'Under review' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
] as const;

/**
 * The numbers a business bought through the platform account. A US number's A2P 10DLC registration is submitted
 * with Twilio by whoever runs Switchboard; here they record where it stands, and the owner's Channels page says
 * what that means. Numbers of countries without registration show what their carriers need, nothing to choose.
 */
function BusinessNumbers({ businessId }: { businessId: string }) {
  const numbers = useAdminNumbers(businessId);
  const record = useRecordRegistration();
  const [error, setError] = useState<string | null>(null);
  if (numbers.isPending) return <Typography.Text type="secondary">Loading the numbers…</Typography.Text>;
  if (numbers.isError) return <Alert type="error" showIcon title={failureText(numbers.error)} role="alert" />;
  if (numbers.data.length === 0)
    return <Typography.Text type="secondary">No numbers bought through Switchboard.</Typography.Text>;
  const choose = async (n: AdminNumber, registration: (typeof REGISTRATION_OPTIONS)[number]['value']) => {
    setError(null);
    try {
      await record.mutateAsync({ id: n.id, patch: { registration } });
      notify.success(`${n.formatted}: registration recorded.`);
    } catch (e) {
      setError(failureText(e));
    }
  };
  return (
    <Flex vertical gap={12}>
      {error && <Alert type="error" showIcon title={error} role="alert" />}
      <ul
        aria-label="Numbers bought through Switchboard"
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {numbers.data.map((n) => (
          <li key={n.id} aria-label={n.formatted} style={{ padding: '8px 0' }}>
            <Flex justify="space-between" align="center" gap={12} wrap>
              <span>
                <Typography.Text strong>{n.formatted}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  {n.iso_country} ·{' '}
                  {n.released_at ? `given back ${day(n.released_at)}` : (n.location_name ?? '—')}
                </Typography.Text>
              </span>
              {n.registration.state !== 'not_required' && !n.released_at && (
                <Select
                  aria-label={`Carrier registration of ${n.formatted}`}
                  value={n.registration.state}
                  style={{ width: 150 }}
                  loading={record.isPending}
                  options={REGISTRATION_OPTIONS.map((o) => ({ ...o }))}
                  onChange={(v) => choose(n, v)}
                />
              )}
            </Flex>
            {!n.released_at && (
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 13 }}>
                {n.registration.summary}
              </Typography.Text>
            )}
          </li>
        ))}
      </ul>
    </Flex>
  );
}

/** One business in the drawer: its account, what an administrator may change, its audit log. */
function BusinessDrawer({ business, onClose }: { business: AdminBusiness; onClose: () => void }) {
  const update = useUpdateBusiness();
  const open = useOpenBusiness();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const change = async (patch: Parameters<typeof update.mutateAsync>[0]['patch'], done: string) => {
    setError(null);
    try {
      await update.mutateAsync({ id: business.id, patch });
      notify.success(done);
    } catch (e) {
      setError(failureText(e));
    }
  };
  const trialEnd = business.trial_end_date ? new Date(business.trial_end_date).getTime() : Date.now();
  const from = Math.max(trialEnd, Date.now());
  return (
    <Drawer open title={business.name} size="min(720px, 100vw)" onClose={onClose} destroyOnHidden>
      <Flex vertical gap={20}>
        {error && <Alert type="error" showIcon title={error} role="alert" />}
        <Flex gap={8} wrap>
          <Button
            type="primary"
            loading={open.isPending}
            onClick={async () => {
              try {
                await open.mutateAsync(business.id);
                navigate('/inbox');
              } catch (e) {
                setError(failureText(e));
              }
            }}
          >
            Open this business
          </Button>
          {!business.verified && (
            <Button onClick={() => change({ verified: true }, 'Email marked as confirmed.')}>
              Mark email confirmed
            </Button>
          )}
        </Flex>
        <div>
          <Typography.Title level={5}>Plan and trial</Typography.Title>
          <Typography.Paragraph>
            Status <Tag color={STATUS_COLOURS[business.status]}>{business.status.replaceAll('_', ' ')}</Tag> ·
            trial ends {day(business.trial_end_date)} · {business.messages_today} of {business.message_limit}{' '}
            messages today · {business.messages_this_month} this month
          </Typography.Paragraph>
          <Space wrap>
            <Select
              aria-label="Plan"
              value={business.plan}
              style={{ width: 140 }}
              options={[
                { value: 'trial', label: 'Trial' },
                { value: 'monthly', label: 'Monthly' },
                { value: 'annual', label: 'Annual' },
              ]}
              onChange={(plan) => change({ plan }, `Plan set to ${plan}.`)}
            />
            <Button
              onClick={() =>
                change(
                  { trial_end_date: new Date(from + 7 * DAY_MS).toISOString() },
                  'Trial extended by 7 days.',
                )
              }
            >
              Extend the trial 7 days
            </Button>
            <Button
              onClick={() =>
                change(
                  { trial_end_date: new Date(from + 14 * DAY_MS).toISOString() },
                  'Trial extended by 14 days.',
                )
              }
            >
              Extend 14 days
            </Button>
            <Button
              danger
              onClick={() =>
                change(
                  { trial_end_date: new Date(Date.now() - 12 * 3_600_000 - DAY_MS).toISOString() },
                  'Trial ended.',
                )
              }
            >
              End the trial now
            </Button>
          </Space>
        </div>
        <div>
          <Typography.Title level={5}>Features</Typography.Title>
          <Flex vertical gap={8}>
            {FEATURE_FLAG_NAMES.map((flag: FeatureFlag) => (
              <Flex key={flag} justify="space-between" align="center" gap={12}>
                <span>{FEATURE_FLAGS[flag].label}</span>
                <Switch
                  aria-label={FEATURE_FLAGS[flag].label}
                  checked={business.feature_flags[flag]}
                  loading={update.isPending}
                  onChange={(on) =>
                    change(
                      { feature_flags: { [flag]: on } },
                      `${FEATURE_FLAGS[flag].label}: ${on ? 'on' : 'off'}.`,
                    )
                  }
                />
              </Flex>
            ))}
            <Flex justify="space-between" align="center" gap={12}>
              <span>
                Regulated business
                {!business.regulated_allowed && (
                  <Typography.Text type="secondary"> (not on this installation's list)</Typography.Text>
                )}
              </span>
              <Switch
                aria-label="Regulated business"
                checked={business.regulated}
                disabled={!business.regulated_allowed && !business.regulated}
                onChange={(on) =>
                  change({ regulated: on }, on ? 'Marked regulated.' : 'No longer regulated.')
                }
              />
            </Flex>
          </Flex>
        </div>
        <div>
          <Typography.Title level={5}>Phone numbers</Typography.Title>
          <BusinessNumbers businessId={business.id} />
        </div>
        {business.signup_meta && (
          <div>
            <Typography.Title level={5}>Sign-up</Typography.Title>
            <Descriptions
              size="small"
              column={1}
              items={signupFacts(business.signup_meta).map((f, i) => ({
                key: i,
                label: f.label,
                children: <span style={{ overflowWrap: 'anywhere' }}>{f.value}</span>,
              }))}
            />
          </div>
        )}
        <div>
          <Typography.Title level={5}>Audit log</Typography.Title>
          <AuditLog scope="admin" businessId={business.id} stacked />
        </div>
      </Flex>
    </Drawer>
  );
}

/** The super admin console: every business, searchable, with its plan, status and usage. */
export function AdminConsole() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useAdminBusinesses(search, page);
  const clear = useClearCache();
  const responsive = useResponsiveColumns<AdminBusiness>(
    [
      {
        key: 'name',
        title: 'Business',
        render: (_: unknown, b: AdminBusiness) => (
          <div>
            <Button type="link" style={{ padding: 0, height: 'auto' }} onClick={() => setOpenId(b.id)}>
              {b.name}
            </Button>
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {b.owner ? `${b.owner.full_name} · ${b.owner.email}` : 'No owner'}
              </Typography.Text>
            </div>
          </div>
        ),
      },
      {
        key: 'status',
        title: 'Plan',
        render: (_: unknown, b: AdminBusiness) => (
          <Tag color={STATUS_COLOURS[b.status]}>{b.status.replaceAll('_', ' ')}</Tag>
        ),
        width: 170,
      },
      {
        key: 'usage',
        title: 'Messages',
        render: (_: unknown, b: AdminBusiness) =>
          `${b.messages_today} today · ${b.messages_this_month} this month`,
        width: 200,
      },
      {
        key: 'created',
        title: 'Created',
        render: (_: unknown, b: AdminBusiness) => day(b.created_at),
        width: 130,
      },
      {
        key: 'flags',
        title: 'Checks',
        render: (_: unknown, b: AdminBusiness) => (
          <Space size={4} wrap>
            <Tag color={b.verified ? 'green' : 'orange'}>{b.verified ? 'verified' : 'unverified'}</Tag>
            {b.regulated && <Tag color="purple">regulated</Tag>}
          </Space>
        ),
        width: 170,
      },
    ],
    900,
  );
  const selected = list.data?.items.find((b) => b.id === openId) ?? null;
  return (
    <Flex vertical gap={16}>
      <Flex gap={8} wrap justify="space-between">
        <SearchField
          aria-label="Search businesses"
          placeholder="Business, owner name or email, or id"
          allowClear
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
          style={{ maxWidth: 420 }}
        />
        <Button
          loading={clear.isPending}
          onClick={async () => {
            await clear.mutateAsync();
            notify.success('The server’s cache of every business was cleared.');
          }}
        >
          Clear the cache
        </Button>
      </Flex>
      <Table<AdminBusiness>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        {...responsive}
        onRow={(b) => ({ onDoubleClick: () => setOpenId(b.id) })}
        pagination={{
          current: page,
          pageSize: 20,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: search ? `No business matches “${search}”.` : 'No businesses yet.' }}
      />
      {selected && <BusinessDrawer business={selected} onClose={() => setOpenId(null)} />}
    </Flex>
  );
}
