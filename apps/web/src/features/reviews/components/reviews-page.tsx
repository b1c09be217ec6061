import { SendOutlined } from '@ant-design/icons';
import {
  customerCalled,
  DEFAULT_REVIEW_MESSAGE,
  nextBusinessDay,
  renderTemplate,
  TEMPLATE_PLACEHOLDERS,
} from '@switchboard/shared';
import {
  Alert,
  Button,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Skeleton,
  Statistic,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import {
  googleConnectLink,
  type ReviewLocation,
  type ReviewRequestJson,
  searchCustomers,
  useGoogleLocations,
  useRequestReviews,
  useReviewLocations,
  useReviewRequests,
  useReviewSettings,
  useSaveReviewSettings,
  useSaveReviewTemplate,
} from '../api.ts';
import './reviews.css';
import { dayText } from '@/lib/dates.ts';

const day = (iso: string) => dayText(iso, 'short');

/** The requests sent and how many were opened. */
function RequestsPanel({ inboxPath }: { inboxPath: string }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<'sent' | 'clicked' | undefined>();
  const requests = useReviewRequests({ page, status });
  const stats = requests.data?.stats;
  const columns: TableColumnsType<ReviewRequestJson> = [
    {
      key: 'customer',
      title: 'Customer',
      render: (_, r) =>
        r.enquiry_id ? (
          <Link to={`${inboxPath}/${r.enquiry_id}`}>{r.customer_name ?? 'Unknown'}</Link>
        ) : (
          r.customer_name
        ),
    },
    { key: 'location', title: 'Location', render: (_, r) => r.location_name ?? '—' },
    { key: 'sent', title: 'Sent', render: (_, r) => day(r.sent_at) },
    {
      key: 'status',
      title: 'Link',
      render: (_, r) =>
        r.status === 'clicked' ? (
          <Tag color="green">Opened {r.clicked_at ? day(r.clicked_at) : ''}</Tag>
        ) : r.status === 'failed' ? (
          <Tag color="red">Not sent</Tag>
        ) : (
          <Tag>Not opened</Tag>
        ),
    },
    {
      key: 'reminders',
      title: 'Reminders',
      render: (_, r) =>
        r.next_reminder_at
          ? `${r.reminders_sent} sent · next ${day(r.next_reminder_at)}`
          : r.reminders_stopped === 'replied'
            ? `${r.reminders_sent} sent · stopped: they replied`
            : r.reminders_stopped === 'clicked'
              ? `${r.reminders_sent} sent · stopped: link opened`
              : `${r.reminders_sent} sent`,
    },
  ];
  const responsive = useResponsiveColumns(columns, 720);
  return (
    <Panel title="Requests">
      <Flex gap={32} wrap style={{ marginBottom: 16 }}>
        <Statistic title="Sent" value={stats?.sent ?? 0} />
        <Statistic title="Link opened" value={stats?.clicked ?? 0} />
        <Statistic title="Open rate" value={stats?.rate ?? 0} suffix="%" />
      </Flex>
      <Select
        aria-label="Show"
        style={{ width: 200, marginBottom: 12 }}
        value={status ?? 'all'}
        onChange={(v) => {
          setStatus(v === 'all' ? undefined : (v as 'sent' | 'clicked'));
          setPage(1);
        }}
        options={[
          { value: 'all', label: 'All requests' },
          { value: 'sent', label: 'Not opened' },
          { value: 'clicked', label: 'Opened' },
        ]}
      />
      {requests.isError && <Alert type="error" showIcon title={failureText(requests.error)} />}
      <Table<ReviewRequestJson>
        rowKey="id"
        loading={requests.isPending}
        dataSource={requests.data?.items ?? []}
        {...responsive}
        pagination={{
          current: page,
          pageSize: 20,
          total: requests.data?.total ?? 0,
          onChange: setPage,
          hideOnSinglePage: true,
          showSizeChanger: false,
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description="No review requests yet. Ask from a conversation (the Review button under the reply box) or ask a list of customers."
            />
          ),
        }}
      />
    </Panel>
  );
}

/** Choose customers and ask them all alike; who was skipped is said with the reason. */
function AskListDialog({ locations, onClose }: { locations: ReviewLocation[]; onClose: () => void }) {
  const [locationId, setLocationId] = useState(locations[0]?.id);
  const [chosen, setChosen] = useState<string[]>([]);
  const [options, setOptions] = useState<{ value: string; label: string }[]>([]);
  const [result, setResult] = useState<{
    sent: number;
    skipped: { name: string | null; reason: string }[];
  } | null>(null);
  const ask = useRequestReviews();
  const search = useCallback(async (q: string) => {
    const found = await searchCustomers(q);
    setOptions(found.map((c) => ({ value: c.id, label: customerCalled(c, 'Unnamed') })));
  }, []);
  useEffect(() => {
    void search('');
  }, [search]);
  return (
    <Modal
      open
      title="Ask customers for a review"
      onCancel={onClose}
      okText={result ? 'Done' : `Ask ${chosen.length || ''}`.trim()}
      okButtonProps={{ loading: ask.isPending, disabled: !result && (!chosen.length || !locationId) }}
      onOk={async () => {
        if (result) return onClose();
        if (!locationId) return;
        try {
          setResult(await ask.mutateAsync({ customer_ids: chosen, location_id: locationId }));
        } catch {
          // The API client has said why.
        }
      }}
    >
      {result ? (
        <Flex vertical gap={8}>
          <Alert type="success" showIcon title={`${result.sent} sent.`} />
          {result.skipped.map((s) => (
            <Alert
              key={`${s.name}-${s.reason}`}
              type="info"
              showIcon
              title={s.name ?? 'A customer'}
              description={s.reason}
            />
          ))}
        </Flex>
      ) : (
        <Flex vertical gap={12}>
          <Select
            aria-label="From the location"
            value={locationId}
            onChange={setLocationId}
            options={locations.map((l) => ({ value: l.id, label: l.name ?? 'Unknown Location' }))}
          />
          <Select
            mode="multiple"
            aria-label="Customers"
            placeholder="Search customers by name, phone or email"
            showSearch={{ filterOption: false, onSearch: (q) => void search(q) }}
            value={chosen}
            onChange={setChosen}
            options={options}
            maxCount={200}
          />
          <Typography.Text type="secondary">
            Everyone is asked alike. A customer asked recently is skipped and you are told.
          </Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}

/** One location's review message (with a preview), review link and reminders. */
function LocationSettings({ location, businessName }: { location: ReviewLocation; businessName: string }) {
  const settings = useReviewSettings(location.id);
  const google = useGoogleLocations();
  const saveTemplate = useSaveReviewTemplate();
  const saveSettings = useSaveReviewSettings();
  const [template] = Form.useForm<{ review_link: string; review_message: string }>();
  const message: string = Form.useWatch('review_message', template) ?? location.review_message ?? '';
  const link: string = Form.useWatch('review_link', template) ?? location.review_link ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const [form] = Form.useForm();
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const preview = `${renderTemplate(message || DEFAULT_REVIEW_MESSAGE, {
    first_name: 'Alex',
    business_name: businessName,
    location_name: location.name,
    business_day: nextBusinessDay(new Date(), location.timezone ?? 'Australia/Melbourne'),
  })}\n${window.location.origin}/r/AbC123xy`;
  const save = async () => {
    setFailure(null);
    try {
      await saveTemplate.mutateAsync({
        location_id: location.id,
        review_message: message.trim() || null,
        review_link: link.trim(),
      });
      await saveSettings.mutateAsync({ location_id: location.id, ...(await form.validateFields()) });
      notify.success(`Review settings for ${location.name ?? 'the location'} saved.`);
    } catch (error) {
      if (error && typeof error === 'object' && 'errorFields' in error) return;
      if (showFieldErrors(template, error) || showFieldErrors(form, error)) return;
      setFailure(failureText(error));
    }
  };
  return (
    <Flex vertical gap={12}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {location.name ?? 'Unknown Location'}
      </Typography.Title>
      {google.data && google.data.source !== 'none' && google.data.connected && (
        <Select
          aria-label="Google Business Profile place"
          placeholder="Choose this location's Google Business Profile place"
          value={google.data.items.find((p) => p.review_link === link)?.place_id}
          onChange={(placeId) => {
            const place = google.data.items.find((p) => p.place_id === placeId);
            if (place) template.setFieldValue('review_link', place.review_link);
          }}
          options={google.data.items.map((p) => ({
            value: p.place_id,
            label: `${p.title}${p.address ? ` · ${p.address}` : ''}`,
          }))}
        />
      )}
      <Form
        form={template}
        className="rv-template"
        initialValues={{
          review_link: location.review_link ?? '',
          review_message: location.review_message ?? '',
        }}
      >
        <Form.Item name="review_link">
          <Input aria-label="Review link" addonBefore="Review link" placeholder="https://g.page/r/…/review" />
        </Form.Item>
        <Form.Item name="review_message">
          <Input.TextArea
            aria-label="Review message"
            placeholder={DEFAULT_REVIEW_MESSAGE}
            maxLength={600}
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">
        Placeholders: {TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}. The link is added at the end.
      </Typography.Text>
      <output className="rv-preview" aria-label="Preview of the review message">
        {preview}
      </output>
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form form={form} layout="inline" initialValues={settings.data} className="rv-settings">
          <Form.Item name="enabled" label="Remind" valuePropName="checked">
            <Switch aria-label="Send reminders" />
          </Form.Item>
          <Form.Item name="max_reminders" label="At most">
            <Select
              aria-label="At most reminders"
              style={{ width: 130 }}
              options={[0, 1, 2].map((n) => ({ value: n, label: `${n} reminder${n === 1 ? '' : 's'}` }))}
            />
          </Form.Item>
          <Form.Item name="delay_days" label="After (days)">
            <InputNumber min={1} max={30} aria-label="Reminder after days" />
          </Form.Item>
          <Form.Item name="after_payment" label="Ask after an invoice is paid" valuePropName="checked">
            <Switch aria-label="Ask after an invoice is paid" />
          </Form.Item>
          <Form.Item name="after_payment_hours" label="Hours later">
            <InputNumber min={1} max={168} aria-label="Hours after payment" />
          </Form.Item>
          <Form.Item name="min_days_between" label="Ask again after (days)">
            <InputNumber min={1} max={365} aria-label="Days between requests" />
          </Form.Item>
        </Form>
      )}
      {failure && <Alert type="error" showIcon title={failure} role="alert" />}
      <Button
        type="primary"
        onClick={() => void save()}
        loading={saveTemplate.isPending || saveSettings.isPending}
        style={{ alignSelf: 'flex-start' }}
      >
        Save
      </Button>
    </Flex>
  );
}

const GOOGLE_OUTCOMES: Record<string, { type: 'success' | 'warning' | 'error'; text: string }> = {
  connected: {
    type: 'success',
    text: 'Google Business Profile connected: choose each location’s place below.',
  },
  refused: { type: 'warning', text: 'Google was not connected: the permission was not given.' },
  expired: {
    type: 'warning',
    text: 'That Google sign-in took too long or did not come from here. Try again.',
  },
  failed: { type: 'error', text: 'Google did not complete the connection. Try again in a moment.' },
};

/** Connecting the business's Google Business Profile, when this server has Google set up. */
function GoogleConnect({ outcome }: { outcome: string | null }) {
  const google = useGoogleLocations();
  const [busy, setBusy] = useState(false);
  const said = outcome ? GOOGLE_OUTCOMES[outcome] : undefined;
  return (
    <>
      {said && <Alert type={said.type} showIcon title={said.text} style={{ marginBottom: 12 }} />}
      {google.data?.source === 'google' && !google.data.connected && (
        <Flex gap={12} align="center" wrap style={{ marginBottom: 16 }}>
          <Button
            loading={busy}
            onClick={async () => {
              setBusy(true);
              try {
                window.location.assign(await googleConnectLink());
              } catch {
                setBusy(false);
              }
            }}
          >
            Connect Google Business Profile
          </Button>
          <Typography.Text type="secondary">
            Then choose each location’s place, and its review link fills in.
          </Typography.Text>
        </Flex>
      )}
    </>
  );
}

/** Reviews: the requests and their clicks; for the owner, each location's settings. */
export function ReviewsPage({
  canManage,
  businessName,
  inboxPath,
  googleOutcome,
  focusLocationId = null,
}: {
  canManage: boolean;
  businessName: string;
  inboxPath: string;
  googleOutcome: string | null;
  /** A location whose settings another screen linked to: scrolled into view once they show. */
  focusLocationId?: string | null;
}) {
  const locations = useReviewLocations();
  const [asking, setAsking] = useState(false);
  const loaded = Boolean(locations.data);
  useEffect(() => {
    if (!loaded || !focusLocationId) return;
    document.getElementById(`review-settings-${focusLocationId}`)?.scrollIntoView({ block: 'start' });
  }, [loaded, focusLocationId]);
  return (
    <Flex vertical gap={24}>
      <Button
        type="primary"
        icon={<SendOutlined />}
        onClick={() => setAsking(true)}
        style={{ alignSelf: 'flex-start' }}
        disabled={!locations.data?.length}
      >
        Ask customers for a review
      </Button>
      <RequestsPanel inboxPath={inboxPath} />
      {canManage && (
        <Panel title="Settings">
          <Typography.Paragraph type="secondary">
            Reminders go between 9:00 and 20:00 where the location is, and stop when the customer opens the
            link or writes back.
          </Typography.Paragraph>
          <GoogleConnect outcome={googleOutcome} />
          {locations.isPending ? (
            <Skeleton active />
          ) : locations.isError ? (
            <Alert type="error" showIcon title={failureText(locations.error)} />
          ) : (
            <Flex vertical gap={32}>
              {locations.data.map((l) => (
                <div key={l.id} id={`review-settings-${l.id}`}>
                  <LocationSettings location={l} businessName={businessName} />
                </div>
              ))}
            </Flex>
          )}
        </Panel>
      )}
      {asking && locations.data && (
        <AskListDialog locations={locations.data} onClose={() => setAsking(false)} />
      )}
    </Flex>
  );
}
