import { PlusOutlined } from '@ant-design/icons';
import { DEFAULT_PAGE_SIZE } from '@switchboard/shared';
import { Button, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { ACTIONS_COLUMN, RowActions } from '@/components/row-actions.tsx';
import { notify } from '@/lib/notifier.ts';
import { useFormModal } from '@/lib/use-form-modal.ts';
import { useDeleteBusinessContact } from '../api/delete-business-contact.ts';
import { useBusinessContacts } from '../api/get-business-contacts.ts';
import type { BusinessEmail, BusinessPhone, ContactKind } from '../types.ts';
import type { LocationOption } from './contact-form-modal.tsx';
import { CONTACT_KINDS } from './contact-kinds.ts';

// The form and its modal load when first needed (or once the page is idle), not before the tables paint.
const loadForm = () => import('./contact-form-modal.tsx');
const ContactFormModal = lazy(loadForm);

type Row = BusinessPhone | BusinessEmail;

type Props = { kind: ContactKind; locations: LocationOption[]; canManage: boolean };

/** One paged table of the business's phone numbers or email addresses, with add, edit and delete. */
export function ContactsCard({ kind, locations, canManage }: Props) {
  const config = CONTACT_KINDS[kind];
  const [page, setPage] = useState(1);
  const form = useFormModal<Row>(loadForm, canManage);
  const contacts = useBusinessContacts(kind, page);
  const remove = useDeleteBusinessContact(kind);
  const locationName = new Map(locations.map((l) => [l.value, l.label]));

  const openForm = form.show;

  const columns: TableColumnsType<Row> = [
    {
      title: config.fieldLabel,
      key: 'value',
      render: (_, r) => <Typography.Text strong>{'phone' in r ? r.phone : r.email}</Typography.Text>,
    },
    {
      title: 'Label',
      key: 'label',
      render: (_, r) => r.label || <Typography.Text type="secondary">No label</Typography.Text>,
    },
    {
      title: 'Location',
      key: 'location',
      render: (_, r) =>
        r.location_id ? (
          (locationName.get(r.location_id) ?? (
            <Typography.Text type="secondary">Removed location</Typography.Text>
          ))
        ) : (
          <Typography.Text type="secondary">All locations</Typography.Text>
        ),
    },
  ];
  if (canManage) {
    columns.push({
      ...ACTIONS_COLUMN,
      render: (_, r) => (
        <RowActions
          onEdit={() => openForm(r)}
          deleteTitle={`Delete this ${config.noun}?`}
          deleting={remove.isPending}
          onDelete={() =>
            remove.mutateAsync(r.id).then(() => notify.success(`Deleted ${'phone' in r ? r.phone : r.email}`))
          }
        />
      ),
    });
  }

  const addButton = (
    <Button icon={<PlusOutlined />} disabled={!canManage} onClick={() => openForm(null)}>
      Add {config.noun}
    </Button>
  );

  const responsive = useResponsiveColumns(columns, 640);
  return (
    <Panel
      title={config.title}
      extra={
        canManage ? (
          addButton
        ) : (
          <Tooltip title="Only the business owner can change these.">{addButton}</Tooltip>
        )
      }
      flush
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0, padding: '12px 24px 4px' }}>
        {config.description}
      </Typography.Paragraph>
      <Table<Row>
        rowKey="id"
        {...responsive}
        dataSource={contacts.data?.items as Row[] | undefined}
        loading={contacts.isFetching}
        pagination={{
          current: page,
          pageSize: contacts.data?.page_size ?? DEFAULT_PAGE_SIZE,
          total: contacts.data?.total ?? 0,
          hideOnSinglePage: true,
          showSizeChanger: false,
          onChange: setPage,
        }}
        locale={{
          emptyText: contacts.isError ? `${config.title} could not be loaded.` : `No ${config.noun}s yet.`,
        }}
      />
      {canManage && form.used && (
        <Suspense fallback={null}>
          <ContactFormModal
            config={config}
            open={form.open}
            record={form.editing}
            locations={locations}
            onClose={form.close}
          />
        </Suspense>
      )}
    </Panel>
  );
}
