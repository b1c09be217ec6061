import { DeleteOutlined } from '@ant-design/icons';
import { CUSTOMER_NOTE_MAX_CHARS, type Customer } from '@switchboard/shared';
import { Button, Flex, Input, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useCustomerNotes } from '../api/customers.ts';

export type Viewer = { id: string; isOwner: boolean };

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * What the team knows about the person, beside every conversation with them (never sent to the customer).
 * The writer of a note, or the owner, can delete it.
 */
export function CustomerNotes({ customer, viewer }: { customer: Customer; viewer: Viewer }) {
  const { add, remove } = useCustomerNotes(customer.id);
  const [draft, setDraft] = useState('');
  const submit = () => {
    const body = draft.trim();
    if (!body) return;
    add.mutate(body, { onSuccess: () => setDraft('') });
  };
  return (
    <Flex vertical gap={8}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Flex vertical gap={6}>
          <Input.TextArea
            aria-label="Note about this customer"
            placeholder="Something the team should know about them (only staff see it)"
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={CUSTOMER_NOTE_MAX_CHARS}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit();
            }}
          />
          {add.isError && (
            <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
              {failureText(add.error)}
            </Typography.Text>
          )}
          <Button
            htmlType="submit"
            size="small"
            disabled={!draft.trim()}
            loading={add.isPending}
            style={{ alignSelf: 'end' }}
          >
            Save note
          </Button>
        </Flex>
      </form>
      {customer.notes.length > 0 && (
        <ul
          aria-label="Notes about this customer"
          style={{
            listStyle: 'none',
            margin: 0,
            padding: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 10,
          }}
        >
          {customer.notes.map((n) => (
            <li
              key={n.id}
              style={{ borderInlineStart: '3px solid #faad14', paddingInlineStart: 8 }}
              aria-label={`Note by ${n.user_id === viewer.id ? 'You' : (n.author ?? 'a former teammate')}`}
            >
              <Flex justify="space-between" align="start" gap={4}>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {n.user_id === viewer.id ? 'You' : (n.author ?? 'A former teammate')} · {when(n.created_at)}
                </Typography.Text>
                {(n.user_id === viewer.id || viewer.isOwner) && (
                  <Popconfirm
                    title="Delete this note?"
                    okText="Delete"
                    onConfirm={() => remove.mutateAsync(n.id)}
                  >
                    <Button type="text" size="small" icon={<DeleteOutlined />} aria-label="Delete note" />
                  </Popconfirm>
                )}
              </Flex>
              <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {n.body}
              </Typography.Paragraph>
            </li>
          ))}
        </ul>
      )}
    </Flex>
  );
}
