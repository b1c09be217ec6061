import { CheckCircleOutlined, DownOutlined, TagsOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Dropdown, Flex } from 'antd';
import { useLabels } from '@/lib/labels.ts';
import { type BulkPatch, useBulkUpdate } from '../api/bulk-update.ts';
import { useMembers } from '../api/get-members.ts';

const plural = (n: number) => (n === 1 ? '1 enquiry' : `${n} enquiries`);

/** What can be done to the enquiries ticked in the list: assign, label, close — all at once. */
export function BulkBar({
  ids,
  userId,
  onDone,
  onCancel,
}: {
  ids: string[];
  userId: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const bulk = useBulkUpdate(userId);
  const members = useMembers();
  const labels = useLabels();
  const run = (patch: BulkPatch, done: string) => bulk.mutate({ ids, patch, done }, { onSuccess: onDone });
  const none = ids.length === 0;
  return (
    <Flex className="ib-bulk-bar" align="center" gap={6} wrap role="toolbar" aria-label="Selected enquiries">
      <span className="ib-bulk-count">{ids.length} selected</span>
      <Dropdown
        trigger={['click']}
        disabled={none}
        menu={{
          items: [
            { key: userId, label: 'Assign to me' },
            ...(members.data ?? [])
              .filter((m) => m.user_id !== userId)
              .map((m) => ({ key: m.user_id, label: m.full_name || m.email })),
            { type: 'divider' as const },
            { key: 'nobody', label: 'Unassign' },
          ],
          onClick: ({ key }) =>
            run(
              { assigned_to: key === 'nobody' ? null : key },
              key === 'nobody' ? `${plural(ids.length)} unassigned` : `${plural(ids.length)} assigned`,
            ),
        }}
      >
        <Button
          size="small"
          icon={<UserAddOutlined />}
          loading={bulk.isPending && bulk.variables?.patch.assigned_to !== undefined}
        >
          Assign <DownOutlined />
        </Button>
      </Dropdown>
      <Dropdown
        trigger={['click']}
        disabled={none || !labels.data?.length}
        menu={{
          items: (labels.data ?? []).map((l) => ({ key: l.id, label: l.name })),
          onClick: ({ key }) => run({ add_labels: [key] }, `Label added to ${plural(ids.length)}`),
        }}
      >
        <Button size="small" icon={<TagsOutlined />}>
          Label <DownOutlined />
        </Button>
      </Dropdown>
      <Button
        size="small"
        icon={<CheckCircleOutlined />}
        disabled={none}
        onClick={() => run({ status: 'closed' }, `${plural(ids.length)} closed`)}
      >
        Close
      </Button>
      <Button size="small" type="text" onClick={onCancel}>
        Done
      </Button>
    </Flex>
  );
}
