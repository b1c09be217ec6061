import { CloudUploadOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { AI_RECRAWL } from '@switchboard/shared';
import { Alert, Button, Form, Input, List, Popconfirm, Select, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { showFieldErrors } from '@/lib/form-errors.ts';
import { notify } from '@/lib/notifier.ts';
import {
  type AiDocument,
  useCrawlNow,
  useDeleteDocument,
  useDocuments,
  useSetRecrawl,
  useUploadKnowledge,
} from '../api.ts';
import { useItemLayout } from '../use-item-layout.ts';

const ACCEPT = '.pdf,.docx,.txt,.md,.html,.htm';
const MAX_MB = 10;
const RECRAWL_LABEL: Record<(typeof AI_RECRAWL)[number], string> = {
  never: 'Never again',
  daily: 'Every day',
  weekly: 'Every week',
  monthly: 'Every month',
};
const STATUS: Record<AiDocument['status'], { color: string; text: string }> = {
  processing: { color: 'processing', text: 'Reading…' },
  ready: { color: 'success', text: 'Read' },
  failed: { color: 'error', text: 'Could not be read' },
};

/**
 * What the assistant learns from: the owner uploads files (PDF, Word, text, HTML) or gives a website, which is
 * fetched again on the schedule they pick. Each shows how far it got and how many FAQs it suggested.
 */
export function KnowledgePanel({ canManage, onReview }: { canManage: boolean; onReview: () => void }) {
  const itemLayout = useItemLayout();
  const documents = useDocuments();
  const upload = useUploadKnowledge();
  const crawl = useCrawlNow();
  const recrawl = useSetRecrawl();
  const remove = useDeleteDocument();
  // Files whose upload was refused or failed: kept on screen to try again or remove, never dropped silently.
  const [files, setFiles] = useState<File[]>([]);
  const [address] = Form.useForm<{ url: string }>();
  const url: string = Form.useWatch('url', address) ?? '';
  const [schedule, setSchedule] = useState<string>('weekly');
  const [problem, setProblem] = useState<string | null>(null);

  const read = (input: { files: File[]; url: string }) => {
    setProblem(null);
    upload.mutate(
      { ...input, recrawl: schedule },
      {
        onSuccess: (made) => {
          if (input.files.length) setFiles((current) => current.filter((f) => !input.files.includes(f)));
          if (input.url) address.resetFields();
          notify.success(
            made.length === 1 ? `Reading “${made[0]?.name}”` : `Reading ${made.length} documents`,
          );
        },
        onError: (error) => {
          setFiles((current) => [...current, ...input.files.filter((f) => !current.includes(f))]);
          // A refused address is said under the box; a refused file, beside the list.
          if (input.files.length || !showFieldErrors(address, error)) setProblem(failureText(error));
        },
      },
    );
  };
  // Chosen or dropped files are read at once: choosing them is the owner's go-ahead.
  const pick = (picked: File[]) => {
    const big = picked.find((f) => f.size > MAX_MB * 1024 * 1024);
    const fine = picked.filter((f) => f.size <= MAX_MB * 1024 * 1024).slice(0, 10);
    if (fine.length) read({ files: fine, url: '' });
    if (big) setProblem(`“${big.name}” is larger than ${MAX_MB} MB. Upload a smaller file.`);
  };
  // A website address refused here is said under its box; a file's refusal beside the list stays until the
  // next reading.
  const readWebsite = () => {
    const refuse = (words: string) => address.setFields([{ name: 'url', errors: [words] }]);
    if (!url.trim()) return refuse('Write a website address, like https://example.com/faq.');
    if (!/^https?:\/\/[^\s/]+\.[^\s]+/i.test(url.trim())) {
      return refuse('Write the website address in full, like https://example.com/faq.');
    }
    read({ files: [], url });
  };

  return (
    <div style={{ display: 'grid', gap: 16 }}>
      {canManage && (
        <Panel title="Teach the assistant">
          <Upload.Dragger
            multiple
            accept={ACCEPT}
            showUploadList={false}
            beforeUpload={(_file, list) => {
              if (_file === list[0]) pick(list as unknown as File[]);
              return false;
            }}
          >
            <p style={{ fontSize: 28, margin: 0 }}>
              <CloudUploadOutlined />
            </p>
            <p style={{ margin: 0 }}>Drop files here, or click to choose</p>
            <Typography.Text type="secondary">
              PDF, Word (.docx), text or HTML, up to {MAX_MB} MB each
            </Typography.Text>
          </Upload.Dragger>
          {files.length > 0 && (
            <ul aria-label="Files not read" style={{ margin: '8px 0 0', paddingLeft: 18 }}>
              {files.map((f) => (
                <li key={`${f.name}-${f.size}`}>
                  {f.name}{' '}
                  <Button
                    type="link"
                    size="small"
                    disabled={upload.isPending}
                    onClick={() => read({ files: [f], url: '' })}
                  >
                    Try again
                  </Button>
                  <Button type="link" size="small" onClick={() => setFiles(files.filter((x) => x !== f))}>
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginTop: 12, alignItems: 'flex-start' }}>
            <Form form={address} component={false}>
              <Form.Item name="url" style={{ flex: '1 1 220px', margin: 0 }}>
                <Input aria-label="Website address" placeholder="https://example.com/faq" />
              </Form.Item>
            </Form>
            <Select
              aria-label="Fetch the website again"
              value={schedule}
              onChange={setSchedule}
              options={AI_RECRAWL.map((r) => ({ value: r, label: RECRAWL_LABEL[r] }))}
              style={{ width: 150 }}
            />
            <Button type="primary" loading={upload.isPending} onClick={readWebsite}>
              Read
            </Button>
          </div>
          {problem && <Alert type="error" showIcon message={problem} style={{ marginTop: 12 }} />}
        </Panel>
      )}
      <Panel title="Documents and websites" flush>
        <List<AiDocument>
          itemLayout={itemLayout}
          loading={documents.isPending}
          dataSource={documents.data ?? []}
          locale={{
            emptyText: documents.isError
              ? failureText(documents.error)
              : 'Nothing yet. Upload your price list, policies or FAQ page, or give your website.',
          }}
          renderItem={(d) => (
            <List.Item
              style={{ paddingInline: 16, flexWrap: 'wrap', gap: 8 }}
              actions={
                canManage
                  ? [
                      ...(d.kind === 'url'
                        ? [
                            <Select
                              key="recrawl"
                              size="small"
                              aria-label={`Fetch ${d.name} again`}
                              value={d.recrawl}
                              onChange={(value) => recrawl.mutate({ id: d.id, recrawl: value })}
                              options={AI_RECRAWL.map((r) => ({ value: r, label: RECRAWL_LABEL[r] }))}
                              style={{ width: 130 }}
                            />,
                            <Button
                              key="crawl"
                              size="small"
                              icon={<ReloadOutlined />}
                              loading={crawl.isPending && crawl.variables === d.id}
                              onClick={() => crawl.mutate(d.id)}
                            >
                              Fetch now
                            </Button>,
                          ]
                        : []),
                      <Popconfirm
                        key="delete"
                        title={`Forget “${d.name}”?`}
                        description="FAQs you accepted from it stay; its suggestions go."
                        okText="Forget"
                        okButtonProps={{ danger: true, loading: remove.isPending }}
                        onConfirm={() => remove.mutateAsync(d.id).then(() => notify.success('Forgotten'))}
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={`Forget ${d.name}`}
                        />
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={
                  <span style={{ overflowWrap: 'anywhere' }}>
                    {d.name} <Tag color={STATUS[d.status].color}>{STATUS[d.status].text}</Tag>
                  </span>
                }
                description={
                  d.status === 'failed' ? (
                    <Typography.Text type="danger">{d.error}</Typography.Text>
                  ) : (
                    <>
                      {d.url && <div style={{ overflowWrap: 'anywhere' }}>{d.url}</div>}
                      {d.section_count} {d.section_count === 1 ? 'part' : 'parts'}
                      {d.proposed_count > 0 && (
                        <>
                          {' · '}
                          <Typography.Link onClick={onReview}>
                            {d.proposed_count} suggested {d.proposed_count === 1 ? 'FAQ' : 'FAQs'} to review
                          </Typography.Link>
                        </>
                      )}
                      {d.crawled_at && d.kind === 'url' && (
                        <> · fetched {new Date(d.crawled_at).toLocaleString()}</>
                      )}
                    </>
                  )
                }
              />
            </List.Item>
          )}
        />
      </Panel>
    </div>
  );
}
