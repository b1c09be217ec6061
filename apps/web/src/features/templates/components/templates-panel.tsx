import { PlusOutlined } from '@ant-design/icons';
import { UNKNOWN_LOCATION } from '@switchboard/shared';
import { Button, Empty, Flex, Table, type TableColumnsType, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { ACTIONS_COLUMN, RowActions } from '@/components/row-actions.tsx';
import { notify } from '@/lib/notifier.ts';
import { useFormModal } from '@/lib/use-form-modal.ts';
import { useDeleteMessageTemplate } from '../api/delete-message-template.ts';
import { useMessageTemplates } from '../api/get-message-templates.ts';
import type { MessageTemplate } from '../types.ts';
import { TemplateBody } from './template-body.tsx';
import type { TemplateLocation } from './template-form-modal.tsx';

// The form and its modal load when first needed (or once the page is idle), not before the list paints.
const loadForm = () => import('./template-form-modal.tsx');
const TemplateFormModal = lazy(loadForm);

const PAGE_SIZE = 20;

type Props = {
  /** Owners add, edit and delete templates; staff see them. The server enforces the same rule. */
  canManage: boolean;
  business: { name: string; timezone: string };
  locations: TemplateLocation[];
  currentLocationId: string | null;
  /** After a template is added, edited or deleted. */
  onChange: () => void;
};

function EmptyTemplates({ canManage, onAdd }: { canManage: boolean; onAdd: () => void }) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      style={{ padding: '24px 16px', maxWidth: 560, margin: '0 auto' }}
      description={
        <Flex vertical gap={4}>
          <Typography.Text strong>No message templates yet</Typography.Text>
          <Typography.Text type="secondary">
            Templates are the replies your team sends again and again (a booking confirmed, a promise to call
            back, opening hours), ready to insert from the Templates menu in the inbox. Placeholders such as{' '}
            <TemplateBody body="{first_name}" /> are filled in for each customer.
          </Typography.Text>
          {!canManage && (
            <Typography.Text type="secondary">The business owner can add them here.</Typography.Text>
          )}
        </Flex>
      }
    >
      {canManage && (
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          Add your first template
        </Button>
      )}
    </Empty>
  );
}

/** The business's message templates, with add, edit and delete for the owner. */
export function TemplatesPanel({ canManage, business, locations, currentLocationId, onChange }: Props) {
  const [page, setPage] = useState(1);
  const form = useFormModal<MessageTemplate>(loadForm, canManage);
  const templates = useMessageTemplates();
  const remove = useDeleteMessageTemplate();
  const locationName = new Map(locations.map((l) => [l.id, l.name ?? UNKNOWN_LOCATION]));

  const openForm = form.show;

  const columns: TableColumnsType<MessageTemplate> = [
    {
      title: 'Name',
      key: 'name',
      width: 220,
      render: (_, t) => <Typography.Text strong>{t.name}</Typography.Text>,
    },
    {
      title: 'Message',
      key: 'body',
      render: (_, t) => (
        <div
          title={t.body}
          style={{
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
          }}
        >
          <TemplateBody body={t.body} />
        </div>
      ),
    },
    {
      title: 'Location',
      key: 'location',
      width: 200,
      render: (_, t) =>
        t.location_id ? (
          (locationName.get(t.location_id) ?? UNKNOWN_LOCATION)
        ) : (
          <Typography.Text type="secondary">All locations</Typography.Text>
        ),
    },
  ];
  if (canManage) {
    columns.push({
      ...ACTIONS_COLUMN,
      render: (_, t) => (
        <RowActions
          subject={t.name}
          onEdit={() => openForm(t)}
          deleteTitle={`Delete “${t.name}”?`}
          deleteDescription="Your team will no longer be offered it in the inbox. This cannot be undone."
          deleting={remove.isPending}
          onDelete={() =>
            remove.mutateAsync(t.id).then(() => {
              notify.success('Template deleted');
              onChange();
            })
          }
        />
      ),
    });
  }

  const items = templates.data ?? [];
  const responsive = useResponsiveColumns(columns, 760);
  return (
    <Panel
      title="Templates"
      extra={
        canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => openForm(null)}>
            Add template
          </Button>
        )
      }
      flush
    >
      <Table<MessageTemplate>
        rowKey="id"
        {...responsive}
        dataSource={items}
        loading={templates.isFetching}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPage,
        }}
        locale={{
          emptyText: templates.isError ? (
            'Templates could not be loaded.'
          ) : templates.isPending ? (
            ' '
          ) : (
            <EmptyTemplates canManage={canManage} onAdd={() => openForm(null)} />
          ),
        }}
      />
      {canManage && form.used && (
        <Suspense fallback={null}>
          <TemplateFormModal
            open={form.open}
            template={form.editing}
            business={business}
            locations={locations}
            currentLocationId={currentLocationId}
            onSaved={onChange}
            onClose={form.close}
          />
        </Suspense>
      )}
    </Panel>
  );
}
