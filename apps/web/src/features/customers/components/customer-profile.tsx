import { EditOutlined, MergeCellsOutlined } from '@ant-design/icons';
import { type Customer, conversationChannelName, WEBSITE_CHAT } from '@switchboard/shared';
import {
  Alert,
  Button,
  Descriptions,
  Flex,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '@/lib/api-error.ts';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { phoneText } from '@/lib/phones.ts';
import { useCustomer, useCustomers, useMergeCustomers, useUpdateCustomer } from '../api/customers.ts';
import { CustomerLabels } from './customer-labels.tsx';
import { CustomerNotes, type Viewer } from './customer-notes.tsx';

const shortDate = (iso: string) => dayText(iso, 'short');

const SECTION = { display: 'flex', flexDirection: 'column', gap: 6 } as const;

const channelName = (channel: string) => {
  try {
    return conversationChannelName(channel as Parameters<typeof conversationChannelName>[0]);
  } catch {
    return channel;
  }
};

/** One detail the staff can correct in place: shown, or an input with Save and Cancel and the server's reason. */
function EditableDetail({
  label,
  value,
  placeholder,
  onSave,
  saving,
  error,
  shown = (v) => v,
}: {
  label: string;
  value: string | null;
  /** How the value reads when not being edited (a phone number as dialled); edited as stored. */
  shown?: (value: string) => string;
  placeholder: string;
  onSave: (next: string | null) => void;
  saving: boolean;
  error: string | null;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null) {
    return (
      <Flex align="center" gap={4} style={{ minWidth: 0 }}>
        <Typography.Text style={{ overflowWrap: 'anywhere' }} type={value ? undefined : 'secondary'}>
          {value ? shown(value) : placeholder}
        </Typography.Text>
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={`Edit ${label.toLowerCase()}`}
          onClick={() => setDraft(value ?? '')}
        />
      </Flex>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSave(draft.trim() || null);
      }}
    >
      <Flex gap={6} wrap>
        <Input
          aria-label={label}
          size="small"
          value={draft}
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          style={{ flex: '1 1 140px' }}
        />
        <Button size="small" type="primary" htmlType="submit" loading={saving}>
          Save
        </Button>
        <Button size="small" onClick={() => setDraft(null)}>
          Cancel
        </Button>
      </Flex>
      {error && (
        <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
          {error}
        </Typography.Text>
      )}
    </form>
  );
}

/** The customer behind a conversation (or on the Customers page): who they are, how they found you, and all their enquiries. */
export default function CustomerProfile({
  customerId,
  currentEnquiryId,
  viewer,
}: {
  customerId: string;
  /** The conversation on screen, left out of the enquiry links. */
  currentEnquiryId?: string;
  /** Who is looking: their own notes, and the owner's, can be deleted. */
  viewer: Viewer;
}) {
  const customer = useCustomer(customerId);
  if (customer.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (customer.isError) {
    return (
      <Alert
        type={isApiError(customer.error) && customer.error.status === 404 ? 'warning' : 'error'}
        showIcon
        title={
          isApiError(customer.error) && customer.error.status === 404
            ? 'This customer is no longer here (merged or removed).'
            : failureText(customer.error)
        }
      />
    );
  }
  return <Profile customer={customer.data} currentEnquiryId={currentEnquiryId} viewer={viewer} />;
}

function Profile({
  customer,
  currentEnquiryId,
  viewer,
}: {
  customer: Customer;
  currentEnquiryId?: string;
  viewer: Viewer;
}) {
  const update = useUpdateCustomer(customer.id);
  const [editing, setEditing] = useState<'name' | 'phone' | 'email' | null>(null);
  const save = (field: 'name' | 'phone' | 'email') => (value: string | null) => {
    setEditing(field);
    update.mutate({ [field]: value }, { onSuccess: () => setEditing(null) });
  };
  const errorOf = (field: 'name' | 'phone' | 'email') =>
    editing === field && update.isError ? failureText(update.error) : null;
  const others = customer.enquiries.filter((e) => e.id !== currentEnquiryId);
  // A website chat visitor's id is ours, not the customer's: it says where they are known, not a number.
  const identities = Object.entries(customer.external_ids).map(([channel, id]) =>
    channel === 'widget' ? ([WEBSITE_CHAT, null] as const) : ([channelName(channel), id] as const),
  );

  return (
    <Flex vertical gap={16} className="customer-profile">
      <Descriptions
        column={1}
        size="small"
        items={[
          {
            key: 'name',
            label: 'Name',
            children: (
              <EditableDetail
                key={`name:${customer.name}`}
                label="Name"
                value={customer.name}
                placeholder="No name yet"
                onSave={save('name')}
                saving={update.isPending && editing === 'name'}
                error={errorOf('name')}
              />
            ),
          },
          {
            key: 'phone',
            label: 'Phone',
            children: (
              <EditableDetail
                key={`phone:${customer.phone}`}
                label="Phone"
                value={customer.phone}
                shown={phoneText}
                placeholder="No phone number"
                onSave={save('phone')}
                saving={update.isPending && editing === 'phone'}
                error={errorOf('phone')}
              />
            ),
          },
          {
            key: 'email',
            label: 'Email',
            children: (
              <EditableDetail
                key={`email:${customer.email}`}
                label="Email"
                value={customer.email}
                placeholder="No email address"
                onSave={save('email')}
                saving={update.isPending && editing === 'email'}
                error={errorOf('email')}
              />
            ),
          },
          {
            key: 'texts',
            label: 'Texts',
            children: customer.sms_opted_out ? (
              <Tag color="red">Opted out (replied STOP)</Tag>
            ) : (
              <Tag color="green">Allowed</Tag>
            ),
          },
          ...(identities.length
            ? [
                {
                  key: 'ids',
                  label: 'Known on',
                  children: (
                    <Flex vertical>
                      {identities.map(([channel, id]) => (
                        <Typography.Text key={channel} style={{ overflowWrap: 'anywhere' }}>
                          {channel}{' '}
                          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                            {id}
                          </Typography.Text>
                        </Typography.Text>
                      ))}
                    </Flex>
                  ),
                },
              ]
            : []),
          ...(customer.first_seen
            ? [
                {
                  key: 'first',
                  label: 'First seen',
                  children: (
                    <Flex vertical>
                      <span>
                        {shortDate(customer.first_seen.at)} · {channelName(customer.first_seen.channel)}
                      </span>
                      {(customer.first_seen.source ||
                        customer.first_seen.medium ||
                        customer.first_seen.campaign) && (
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {[
                            customer.first_seen.source && `source ${customer.first_seen.source}`,
                            customer.first_seen.medium && `medium ${customer.first_seen.medium}`,
                            customer.first_seen.campaign && `campaign ${customer.first_seen.campaign}`,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        </Typography.Text>
                      )}
                      {customer.first_seen.landing_page && (
                        <Typography.Text type="secondary" style={{ fontSize: 12, overflowWrap: 'anywhere' }}>
                          on {customer.first_seen.landing_page}
                        </Typography.Text>
                      )}
                    </Flex>
                  ),
                },
              ]
            : []),
        ]}
      />
      <section aria-label="Labels" style={SECTION}>
        <Typography.Text strong>Labels</Typography.Text>
        <CustomerLabels customer={customer} canManage={viewer.isOwner} />
      </section>
      <section aria-label="Notes" style={SECTION}>
        <Typography.Text strong>Notes ({customer.notes.length})</Typography.Text>
        <CustomerNotes customer={customer} viewer={viewer} />
      </section>
      <section aria-label="Their enquiries">
        <Typography.Text strong>
          {currentEnquiryId ? 'Their other enquiries' : 'Their enquiries'} ({others.length})
        </Typography.Text>
        {others.length === 0 ? (
          <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
            None.
          </Typography.Paragraph>
        ) : (
          <ul
            style={{
              listStyle: 'none',
              margin: '6px 0 0',
              padding: 0,
              display: 'flex',
              flexDirection: 'column',
              gap: 6,
            }}
          >
            {others.map((e) => (
              <li key={e.id}>
                <Link to={`/inbox/${encodeURIComponent(e.id)}`}>
                  {channelName(e.channel)} · {shortDate(e.last_message_at)}
                </Link>{' '}
                <Tag color={e.status === 'open' ? 'green' : undefined}>
                  {e.status === 'open' ? 'Open' : 'Closed'}
                </Tag>
                {e.last_message && (
                  <Typography.Text
                    type="secondary"
                    ellipsis
                    style={{ display: 'block', fontSize: 12, maxWidth: '100%' }}
                  >
                    {e.last_message}
                  </Typography.Text>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <MergeCustomer customer={customer} />
    </Flex>
  );
}

/** Two records of one person (a text and an email, say) become one: the other's enquiries move here. */
function MergeCustomer({ customer }: { customer: Customer }) {
  const [q, setQ] = useState('');
  const [other, setOther] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const candidates = useCustomers(q, 1);
  const merge = useMergeCustomers(customer.id);
  if (!open) {
    return (
      <Button icon={<MergeCellsOutlined />} onClick={() => setOpen(true)}>
        Merge with another customer…
      </Button>
    );
  }
  const options = (candidates.data?.items ?? [])
    .filter((c) => c.id !== customer.id)
    .map((c) => ({
      value: c.id,
      label: [c.name, c.phone, c.email].filter(Boolean).join(' · ') || 'Unnamed customer',
    }));
  const chosen = options.find((o) => o.value === other);
  return (
    <Flex vertical gap={8}>
      <Typography.Text>Find the other record of this person:</Typography.Text>
      <Select
        aria-label="Customer to merge"
        showSearch={{ filterOption: false, onSearch: setQ }}
        placeholder="Search by name, number or email"
        value={other}
        onChange={setOther}
        options={options}
        notFoundContent={candidates.isFetching ? 'Searching…' : 'No customers found'}
      />
      <Flex gap={8} wrap>
        <Popconfirm
          title="Merge these customers?"
          description={`${chosen?.label ?? 'The other customer'}'s enquiries and details move here, and that record is removed.`}
          okText="Merge"
          onConfirm={() =>
            other
              ? merge.mutateAsync(other).then(() => {
                  setOpen(false);
                  setOther(null);
                })
              : undefined
          }
          disabled={!other}
        >
          <Button type="primary" disabled={!other} loading={merge.isPending}>
            Merge into this customer
          </Button>
        </Popconfirm>
        <Button onClick={() => setOpen(false)}>Cancel</Button>
      </Flex>
    </Flex>
  );
}
