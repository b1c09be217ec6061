import { PlusOutlined } from '@ant-design/icons';
import { AI_FAQ_MAX_ANSWER, AI_FAQ_MAX_QUESTION } from '@switchboard/shared';
import { Button, Form, Input, Modal, Select, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { useResponsiveColumns } from '@/components/responsive-table.tsx';
import { ACTIONS_COLUMN, RowActions } from '@/components/row-actions.tsx';
import { SearchField } from '@/components/search-field.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { useFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import { type AiFaq, type AiStatus, useDeleteFaq, useFaqs, useSaveFaq } from '../api.ts';

type Values = { question: string; answer: string; phrasings: string[]; location_ids: string[] };

/**
 * The questions the assistant answers: search, where each applies, the other ways customers ask it ("also
 * asked as"); the owner adds, edits and deletes them.
 */
export function FaqsPanel({ status, canManage }: { status: AiStatus; canManage: boolean }) {
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const faqs = useFaqs({ page, status: 'active', q });
  const save = useSaveFaq();
  const remove = useDeleteFaq();
  const [editing, setEditing] = useState<AiFaq | 'new' | null>(null);
  const [form] = Form.useForm<Values>();
  const fieldErrors = useFieldErrors(form);

  const open = (faq: AiFaq | 'new') => {
    save.reset();
    setEditing(faq);
    form.setFieldsValue(
      faq === 'new'
        ? { question: '', answer: '', phrasings: [], location_ids: [] }
        : {
            question: faq.question,
            answer: faq.answer,
            phrasings: faq.phrasings,
            location_ids: faq.location_ids ?? [],
          },
    );
  };

  const columns: TableColumnsType<AiFaq> = [
    {
      title: 'Question',
      key: 'question',
      render: (_, f) => (
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{f.question}</Typography.Text>
          {f.phrasings.length > 0 && (
            <div style={{ fontSize: 12, color: 'var(--ant-color-text-secondary)' }}>
              Also asked as: {f.phrasings.join(' · ')}
            </div>
          )}
        </div>
      ),
    },
    {
      title: 'Answer',
      key: 'answer',
      render: (_, f) => (
        <Typography.Paragraph ellipsis={{ rows: 3, tooltip: f.answer }} style={{ margin: 0 }}>
          {f.answer}
        </Typography.Paragraph>
      ),
    },
    {
      title: 'Locations',
      key: 'locations',
      render: (_, f) =>
        f.all_locations ? <Tag>All locations</Tag> : f.location_names.map((n) => <Tag key={n}>{n}</Tag>),
    },
  ];
  if (canManage)
    columns.push({
      ...ACTIONS_COLUMN,
      render: (_, f) => (
        <RowActions
          subject={f.question}
          onEdit={() => open(f)}
          deleteTitle="Delete this FAQ?"
          deleteDescription="The assistant stops answering it. This cannot be undone."
          deleting={remove.isPending}
          onDelete={() => remove.mutateAsync(f.id).then(() => notify.success('FAQ deleted'))}
        />
      ),
    });
  const responsive = useResponsiveColumns(columns, 640);

  return (
    <Panel
      title="FAQs"
      extra={
        canManage && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')}>
            Add FAQ
          </Button>
        )
      }
      flush
    >
      <div style={{ padding: '12px 16px' }}>
        <SearchField
          allowClear
          placeholder="Search questions and answers"
          aria-label="Search FAQs"
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
          style={{ maxWidth: 360 }}
        />
      </div>
      <Table<AiFaq>
        rowKey="id"
        {...responsive}
        dataSource={faqs.data?.items}
        loading={faqs.isFetching}
        pagination={{
          current: page,
          pageSize: 10,
          total: faqs.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        locale={{
          emptyText: faqs.isError
            ? failureText(faqs.error)
            : q
              ? `No FAQ mentions “${q}”.`
              : 'No FAQs yet. Add the questions customers ask most, or set up the assistant to make the first ones.',
        }}
      />
      <Modal
        title={editing === 'new' ? 'Add an FAQ' : 'Edit FAQ'}
        open={editing !== null}
        okText="Save"
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={(values) =>
            save.mutate(
              {
                question: values.question,
                answer: values.answer,
                phrasings: values.phrasings ?? [],
                location_ids: values.location_ids?.length ? values.location_ids : null,
                ...(editing && editing !== 'new' ? { id: editing.id } : {}),
              },
              {
                onError: fieldErrors.onError,
                onSuccess: () => {
                  setEditing(null);
                  notify.success('FAQ saved');
                },
              },
            )
          }
        >
          <Form.Item
            name="question"
            label="Question"
            rules={[{ required: true, whitespace: true, message: 'Write the question.' }]}
          >
            <Input maxLength={AI_FAQ_MAX_QUESTION} placeholder="Do you have parking?" />
          </Form.Item>
          <Form.Item
            name="answer"
            label="Answer"
            rules={[{ required: true, whitespace: true, message: 'Write the answer.' }]}
          >
            <Input.TextArea rows={4} maxLength={AI_FAQ_MAX_ANSWER} />
          </Form.Item>
          <Form.Item
            name="phrasings"
            label="Also asked as"
            extra="Other ways customers put the same question. Press Enter after each."
          >
            <Select
              mode="tags"
              open={false}
              suffixIcon={null}
              placeholder="Where can I park?"
              aria-label="Also asked as"
            />
          </Form.Item>
          <Form.Item name="location_ids" label="Locations" extra="Leave empty for every location.">
            <Select
              mode="multiple"
              allowClear
              placeholder="All locations"
              aria-label="Locations"
              options={status.locations.map((l) => ({
                value: l.location_id,
                label: l.name ?? 'Unknown Location',
              }))}
            />
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
