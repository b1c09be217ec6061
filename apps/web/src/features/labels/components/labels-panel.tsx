import { PlusOutlined } from '@ant-design/icons';
import type { Label, LabelRequest } from '@switchboard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, ColorPicker, Form, Input, Modal, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { ACTIONS_COLUMN, RowActions } from '@/components/row-actions.tsx';
import { api, type Envelope } from '@/lib/api-client.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { labelsQueryOptions, useLabels } from '@/lib/labels.ts';
import { notify } from '@/lib/notifier.ts';

const LABELS_KEY = labelsQueryOptions().queryKey;
const DEFAULT_COLOUR = '#1E75FF';

function useSaveLabel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...input }: LabelRequest & { id?: string }) => {
      // A name already used is said in the form.
      const config = { handledStatuses: [409] as const };
      const { data } = id
        ? await api.put<Envelope<Label>>(`/labels/${encodeURIComponent(id)}`, input, config)
        : await api.post<Envelope<Label>>('/labels', input, config);
      return data.body;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LABELS_KEY }),
  });
}

function useDeleteLabel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/labels/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
      // Deleting a label takes it off enquiries.
      void queryClient.invalidateQueries({ queryKey: ['enquiries'] });
    },
  });
}

/** The labels staff put on enquiries: the owner adds, renames, recolours and deletes them. */
export function LabelsPanel({ canManage }: { canManage: boolean }) {
  const labels = useLabels();
  const save = useSaveLabel();
  const remove = useDeleteLabel();
  const [editing, setEditing] = useState<Label | 'new' | null>(null);
  const [form] = Form.useForm<{ name: string; colour: string }>();
  const fieldErrors = useFieldErrors(form);

  const open = (label: Label | 'new') => {
    setEditing(label);
    save.reset();
    form.setFieldsValue(
      label === 'new' ? { name: '', colour: DEFAULT_COLOUR } : { name: label.name, colour: label.colour },
    );
  };
  const columns: TableColumnsType<Label> = [
    { title: 'Label', key: 'name', render: (_, l) => <Tag color={l.colour}>{l.name}</Tag> },
    { title: 'Colour', key: 'colour', render: (_, l) => <Typography.Text code>{l.colour}</Typography.Text> },
  ];
  if (canManage)
    columns.push({
      ...ACTIONS_COLUMN,
      render: (_, l) => (
        <RowActions
          subject={l.name}
          onEdit={() => open(l)}
          deleteTitle={`Delete “${l.name}”?`}
          deleteDescription="It comes off every enquiry that has it. This cannot be undone."
          deleting={remove.isPending}
          onDelete={() => remove.mutateAsync(l.id).then(() => notify.success('Label deleted'))}
        />
      ),
    });
  const responsive = useResponsiveColumns(columns, 480);

  return (
    <Panel
      title="Labels"
      extra={
        canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
            Add label
          </Button>
        )
      }
      flush
    >
      <Table<Label>
        rowKey="id"
        {...responsive}
        dataSource={labels.data}
        loading={labels.isFetching}
        pagination={false}
        locale={{
          emptyText: labels.isError
            ? failureText(labels.error)
            : canManage
              ? 'No labels yet. Add some (Urgent, Billing, New patient…) for your team to sort enquiries with.'
              : 'No labels yet. The business owner adds them.',
        }}
      />
      <Modal
        title={editing === 'new' ? 'Add a label' : 'Edit label'}
        open={editing !== null}
        okText="Save"
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) =>
            save.mutate(
              { ...values, ...(editing && editing !== 'new' ? { id: editing.id } : {}) },
              {
                onError: fieldErrors.onError,
                onSuccess: () => {
                  setEditing(null);
                  notify.success('Label saved');
                },
              },
            )
          }
        >
          <Form.Item
            label="Name"
            name="name"
            rules={[{ required: true, whitespace: true, message: 'Give the label a name.' }, { max: 40 }]}
          >
            <Input autoFocus />
          </Form.Item>
          <Form.Item
            label="Colour"
            name="colour"
            getValueFromEvent={(colour: { toHexString(): string }) =>
              colour.toHexString().slice(0, 7).toUpperCase()
            }
          >
            <ColorPicker showText disabledAlpha />
          </Form.Item>
          {save.isError && fieldErrors.unplaced(save.error) && (
            <Typography.Text type="danger" role="alert">
              {failureText(save.error)}
            </Typography.Text>
          )}
        </Form>
      </Modal>
    </Panel>
  );
}
