import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Empty, List, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import { type AiFaq, useAcceptFaq, useDeleteFaq, useFaqs } from '../api.ts';
import { useItemLayout } from '../use-item-layout.ts';

const ORIGIN: Record<AiFaq['origin'], string> = {
  handoff: 'From how your team answered a conversation the assistant handed over',
  document: 'From an uploaded document',
  onboarding: 'From what you told the assistant',
  manual: 'Added by hand',
};

/** FAQs the assistant proposes (from handed-over conversations, from documents): one click to accept or dismiss. */
export function ProposedFaqs({ canManage }: { canManage: boolean }) {
  const itemLayout = useItemLayout();
  const [page, setPage] = useState(1);
  const proposed = useFaqs({ page, status: 'proposed', q: '' });
  const accept = useAcceptFaq();
  const dismiss = useDeleteFaq();
  return (
    <Panel title="Suggested FAQs">
      {proposed.isError ? (
        <Typography.Text type="danger">{failureText(proposed.error)}</Typography.Text>
      ) : (
        <List<AiFaq>
          itemLayout={itemLayout}
          loading={proposed.isFetching}
          dataSource={proposed.data?.items ?? []}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description="Nothing to review. When your team answers something the assistant could not, it suggests an FAQ here."
              />
            ),
          }}
          pagination={
            (proposed.data?.total ?? 0) > 10
              ? { current: page, pageSize: 10, total: proposed.data?.total, onChange: setPage }
              : false
          }
          renderItem={(f) => (
            <List.Item
              actions={
                canManage
                  ? [
                      <Button
                        key="accept"
                        type="primary"
                        size="small"
                        icon={<CheckOutlined />}
                        aria-label={`Accept “${f.question}”`}
                        loading={accept.isPending && accept.variables === f.id}
                        onClick={() =>
                          accept.mutate(f.id, {
                            onSuccess: () =>
                              notify.success(f.target_faq_id ? 'Added to the FAQ' : 'FAQ added'),
                          })
                        }
                      >
                        Accept
                      </Button>,
                      <Button
                        key="dismiss"
                        size="small"
                        icon={<CloseOutlined />}
                        aria-label={`Dismiss “${f.question}”`}
                        loading={dismiss.isPending && dismiss.variables === f.id}
                        onClick={() => dismiss.mutate(f.id)}
                      >
                        Dismiss
                      </Button>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={f.target_faq_id ? `A new way of asking: “${f.question}”` : f.question}
                description={
                  <>
                    <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
                      {f.answer}
                    </Typography.Paragraph>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {ORIGIN[f.origin]}
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
      {(accept.isError || dismiss.isError) && (
        <Typography.Text type="danger" role="alert">
          {failureText(accept.error ?? dismiss.error)}
        </Typography.Text>
      )}
    </Panel>
  );
}
