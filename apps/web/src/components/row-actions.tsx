import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';

type Props = {
  onEdit: () => void;
  /** Deletes the row; the confirmation stays open (loading) until it settles. */
  onDelete: () => Promise<unknown>;
  deleting: boolean;
  /** The confirmation's question, e.g. 'Delete Richmond?'. */
  deleteTitle: string;
  deleteDescription?: ReactNode;
  /** What the buttons are called to a screen reader, e.g. 'Parking' gives 'Edit Parking'; plain 'Edit' without. */
  subject?: string;
};

/** A settings table's Edit and Delete (with a confirmation) for one row. */
export function RowActions({ onEdit, onDelete, deleting, deleteTitle, deleteDescription, subject }: Props) {
  const label = (verb: string) => (subject ? `${verb} ${subject}` : verb);
  return (
    <Space size={0}>
      <Tooltip title="Edit">
        <Button type="text" icon={<EditOutlined />} aria-label={label('Edit')} onClick={onEdit} />
      </Tooltip>
      <Popconfirm
        title={deleteTitle}
        description={deleteDescription}
        okText="Delete"
        okButtonProps={{ danger: true, loading: deleting }}
        onConfirm={onDelete}
      >
        <Tooltip title="Delete">
          <Button type="text" danger icon={<DeleteOutlined />} aria-label={label('Delete')} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );
}

/** The column that holds them, labelled for screen readers only. */
export const ACTIONS_COLUMN = {
  title: <span className="sr-only">Actions</span>,
  key: 'actions',
  align: 'right',
  width: 110,
} as const;
