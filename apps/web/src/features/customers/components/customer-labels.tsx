import type { Customer } from '@switchboard/shared';
import { Select, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { failureText } from '@/lib/failure-text.ts';
import { useLabels } from '@/lib/labels.ts';
import { useUpdateCustomer } from '../api/customers.ts';

/** The business's labels on the person (VIP, nervous patient…), put on and taken off in place. */
export function CustomerLabels({ customer, canManage }: { customer: Customer; canManage: boolean }) {
  const labels = useLabels();
  const update = useUpdateCustomer(customer.id);
  const byId = new Map((labels.data ?? []).map((l) => [l.id, l]));
  const shown = update.isPending && update.variables?.labels ? update.variables.labels : customer.labels;
  if (labels.isSuccess && labels.data.length === 0) {
    return (
      <Typography.Text type="secondary">
        No labels yet.
        {canManage && (
          <>
            {' '}
            Make them under{' '}
            <Link to="/settings/labels" style={{ textDecoration: 'underline' }}>
              Labels
            </Link>
            .
          </>
        )}
      </Typography.Text>
    );
  }
  return (
    <>
      <Select
        mode="multiple"
        aria-label="Customer labels"
        placeholder="Add a label"
        style={{ width: '100%' }}
        loading={labels.isPending}
        value={shown.filter((id) => byId.has(id))}
        onChange={(next: string[]) => update.mutate({ labels: next })}
        options={(labels.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
        tagRender={({ value, closable, onClose }) => {
          const label = byId.get(String(value));
          return (
            <Tag color={label?.colour} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>
              {label?.name ?? 'Label'}
            </Tag>
          );
        }}
      />
      {labels.isError && <Typography.Text type="danger">Labels could not be loaded.</Typography.Text>}
      {update.isError && update.variables?.labels && (
        <Typography.Text type="danger" role="alert" style={{ fontSize: 12 }}>
          {failureText(update.error)}
        </Typography.Text>
      )}
    </>
  );
}
