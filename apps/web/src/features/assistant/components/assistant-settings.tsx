import { Alert, Badge, Descriptions, Grid, Select, Skeleton, Tabs, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useAiStatus } from '../api.ts';
import { AutoReplyPanel } from './auto-reply-panel.tsx';
import { FaqsPanel } from './faqs-panel.tsx';
import { FlowsPanel } from './flows-panel.tsx';
import { KnowledgePanel } from './knowledge-panel.tsx';
import { Onboarding } from './onboarding.tsx';
import { Playground } from './playground.tsx';
import { ProposedFaqs } from './proposed-faqs.tsx';
import { RatingsPanel } from './ratings-panel.tsx';
import { ToolsPanel } from './tools-panel.tsx';
import './assistant.css';

/**
 * The AI assistant's settings: what it knows about the business, its FAQs and the ones it suggests, where it
 * answers customers, a place to try it, and what people thought of its answers. Owners change things; staff
 * see the FAQs.
 */
export function AssistantSettings({
  canManage,
  initialTab = null,
}: {
  canManage: boolean;
  /** The section to open at (another screen linked to it), instead of the usual first one. */
  initialTab?: string | null;
}) {
  const status = useAiStatus();
  const [tab, setTab] = useState<string | null>(initialTab);
  // On a phone six tabs do not fit across: the sections are picked from a list instead.
  const narrow = Grid.useBreakpoint().md === false;
  if (status.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (status.isError) return <Alert type="error" showIcon message={failureText(status.error)} />;
  const s = status.data;
  const setUp = s.profile.onboarding_completed;
  const wanted = tab ?? (setUp || !canManage ? 'faqs' : 'about');
  const provider =
    s.provider.kind === 'model'
      ? `AI model ${s.provider.model ?? ''}${s.provider.embeddings ? ' (with embeddings)' : ''}`
      : 'Built-in (no AI model): answers from your FAQs word for word';
  const sections: { key: string; name: string; label: ReactNode; children: ReactNode }[] = [
    ...(canManage
      ? [
          {
            key: 'about',
            name: 'About the business',
            label: 'About the business',
            children: <Onboarding status={s} onDone={() => setTab('faqs')} />,
          },
        ]
      : []),
    { key: 'faqs', name: 'FAQs', label: 'FAQs', children: <FaqsPanel status={s} canManage={canManage} /> },
    {
      key: 'knowledge',
      name: 'Documents and websites',
      label: 'Documents',
      children: <KnowledgePanel canManage={canManage} onReview={() => setTab('suggested')} />,
    },
    {
      key: 'suggested',
      name: s.proposed_count ? `Suggested (${s.proposed_count})` : 'Suggested',
      label: (
        <Badge count={s.proposed_count} size="small" offset={[8, -2]}>
          Suggested
        </Badge>
      ),
      children: <ProposedFaqs canManage={canManage} />,
    },
    {
      key: 'flows',
      name: 'Flows and tools',
      label: 'Flows and tools',
      children: (
        <div style={{ display: 'grid', gap: 16 }}>
          <FlowsPanel canManage={canManage} />
          <ToolsPanel canManage={canManage} />
        </div>
      ),
    },
    {
      key: 'auto-reply',
      name: 'Answering customers',
      label: 'Answering customers',
      children: <AutoReplyPanel status={s} canManage={canManage} />,
    },
    ...(canManage
      ? [
          { key: 'try', name: 'Try it', label: 'Try it', children: <Playground status={s} /> },
          { key: 'ratings', name: 'Ratings', label: 'Ratings', children: <RatingsPanel /> },
        ]
      : []),
  ];
  // A section asked for by a link that this person does not have opens the first one instead.
  const active = sections.some((x) => x.key === wanted) ? wanted : 'faqs';
  return (
    <>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
        <Descriptions.Item label="Answers with">{provider}</Descriptions.Item>
        <Descriptions.Item label="FAQs">{s.faq_count}</Descriptions.Item>
        <Descriptions.Item label="Answering at">
          {s.locations.filter((l) => l.action === 'auto').length} of {s.locations.length} locations
        </Descriptions.Item>
      </Descriptions>
      {!setUp && canManage && active !== 'about' && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={
            <>
              Tell the assistant about the business first.{' '}
              <Typography.Link onClick={() => setTab('about')}>Set it up</Typography.Link>
            </>
          }
        />
      )}
      {narrow ? (
        <>
          <Select
            aria-label="Section"
            value={active}
            onChange={setTab}
            style={{ width: '100%', marginBottom: 12 }}
            options={sections.map((x) => ({ value: x.key, label: x.name }))}
          />
          {sections.find((x) => x.key === active)?.children}
        </>
      ) : (
        <Tabs
          activeKey={active}
          onChange={setTab}
          destroyOnHidden
          items={sections.map(({ name: _name, ...x }) => x)}
        />
      )}
    </>
  );
}
