import { PlusOutlined } from '@ant-design/icons';
import {
  calendarDayIn,
  DEFAULT_PAGE_SIZE,
  openingState,
  UNKNOWN_ADDRESS,
  UNKNOWN_LOCATION,
} from '@switchboard/shared';
import { Button, Flex, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { ACTIONS_COLUMN, RowActions } from '@/components/row-actions.tsx';
import { notify } from '@/lib/notifier.ts';
import { phoneText } from '@/lib/phones.ts';
import { useFormModal } from '@/lib/use-form-modal.ts';
import { useDeleteLocation } from '../api/delete-location.ts';
import { useLocations } from '../api/get-locations.ts';
import type { Location } from '../types.ts';

// The form and its modal load when first needed (or once the page is idle), not before the table paints.
const loadForm = () => import('./location-form-modal.tsx');
const LocationFormModal = lazy(loadForm);

type Props = {
  /** Owners add, edit and remove locations; staff see them. The server enforces the same rule. */
  canManage: boolean;
  currentLocationId: string | null;
  defaultTimezone: string;
  /** Calling is on for the business: a location's tracking numbers belong to it. */
  calls: boolean;
  /** A location whose form opens once it is listed (another screen linked here to change it); then cleared. */
  editId?: string | null;
  onEditOpened?: () => void;
};

/** Settings → Channels & forms, where each location's numbers and addresses are listed. */
const CHANNELS_PATH = '/settings/channels';

const OWNER_ONLY = 'Only the business owner can add, edit or remove locations.';

/** 'Always open', or whether the location is open right now by its hours. */
function hoursNow(l: Location, defaultTimezone: string): string {
  const zone = l.timezone ?? defaultTimezone;
  const holiday = l.holidays.find((h) => h.date === calendarDayIn(new Date(), zone));
  if (holiday) return holiday.name ? `Closed today (${holiday.name})` : 'Closed today (holiday)';
  if (!l.opening_hours) return 'Always open';
  return openingState(l.opening_hours, zone, new Date()).open ? 'Open now' : 'Closed now';
}

function Missing({ children }: { children: string }) {
  return <Typography.Text type="secondary">{children}</Typography.Text>;
}

export function LocationsTable({
  canManage,
  currentLocationId,
  defaultTimezone,
  calls,
  editId,
  onEditOpened,
}: Props) {
  const [page, setPage] = useState(1);
  const form = useFormModal<Location>(loadForm, canManage);
  const locations = useLocations({ page });

  const remove = useDeleteLocation();

  const openForm = form.show;
  const linked = editId ? locations.data?.items.find((l) => l.id === editId) : undefined;
  useEffect(() => {
    if (!linked || !canManage) return;
    openForm(linked);
    onEditOpened?.();
  }, [linked, canManage, openForm, onEditOpened]);

  const columns: TableColumnsType<Location> = [
    {
      title: 'Location',
      key: 'name',
      render: (_, l) => (
        <Flex vertical gap={2}>
          <Space size={8} wrap>
            {l.name ? (
              <Typography.Text strong>{l.name}</Typography.Text>
            ) : (
              <Missing>{UNKNOWN_LOCATION}</Missing>
            )}
            {l.id === currentLocationId && <Tag color="blue">Current</Tag>}
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {(l.timezone ?? defaultTimezone).replaceAll('_', ' ')} · {hoursNow(l, defaultTimezone)}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      title: 'Address',
      key: 'address',
      render: (_, l) => l.address || <Missing>{UNKNOWN_ADDRESS}</Missing>,
    },
    {
      // Numbers and addresses come from the location's channels, listed in one place.
      title: 'Reached on',
      key: 'contact',
      render: (_, l) => (
        <Flex vertical>
          {l.phone_number && <span>{phoneText(l.phone_number)}</span>}
          <Link to={`${CHANNELS_PATH}#location-${l.id}`}>All numbers and addresses</Link>
        </Flex>
      ),
    },
    {
      title: 'Open enquiries',
      key: 'open',
      align: 'right',
      width: 140,
      render: (_, l) => (l.assigned_count_open ?? 0) + (l.unassigned_count_open ?? 0),
    },
  ];

  if (canManage) {
    columns.push({
      ...ACTIONS_COLUMN,
      render: (_, l) => (
        <RowActions
          onEdit={() => openForm(l)}
          deleteTitle={`Delete ${l.name ?? UNKNOWN_LOCATION}?`}
          deleteDescription="The location and its settings will be removed. This cannot be undone."
          deleting={remove.isPending}
          onDelete={() => remove.mutateAsync(l.id).then(() => notify.success('Location deleted'))}
        />
      ),
    });
  }

  const addButton = (
    <Button type="primary" icon={<PlusOutlined />} disabled={!canManage} onClick={() => openForm(null)}>
      Add location
    </Button>
  );

  const responsive = useResponsiveColumns(columns, 760);
  return (
    <Panel
      title="All locations"
      extra={canManage ? addButton : <Tooltip title={OWNER_ONLY}>{addButton}</Tooltip>}
      flush
    >
      {!canManage && (
        <Typography.Paragraph type="secondary" style={{ margin: 0, padding: '12px 24px 0' }}>
          {OWNER_ONLY}
        </Typography.Paragraph>
      )}
      <Table<Location>
        rowKey="id"
        {...responsive}
        dataSource={locations.data?.items}
        loading={locations.isFetching}
        pagination={{
          current: page,
          pageSize: locations.data?.page_size ?? DEFAULT_PAGE_SIZE,
          total: locations.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: setPage,
          showSizeChanger: false,
        }}
        locale={{ emptyText: locations.isError ? 'Locations could not be loaded.' : 'No locations yet.' }}
      />
      {canManage && form.used && (
        <Suspense fallback={null}>
          <LocationFormModal
            open={form.open}
            location={form.editing}
            defaultTimezone={defaultTimezone}
            calls={calls}
            onClose={form.close}
          />
        </Suspense>
      )}
    </Panel>
  );
}
