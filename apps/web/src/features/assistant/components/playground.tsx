import { DislikeOutlined, LikeOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { AI_PLAY_MAX, type AiReplyMeta } from '@switchboard/shared';
import { Alert, Button, Input, List, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { notify } from '@/lib/notifier.ts';
import {
  type AiPlayMessage,
  type AiStatus,
  usePlayConversations,
  usePlayMessages,
  usePlaySend,
  useRate,
} from '../api.ts';

const ACTION_TAG: Record<AiReplyMeta['action'], { color: string; text: string }> = {
  answer: { color: 'green', text: 'Answered' },
  ask: { color: 'blue', text: 'Asked back' },
  handoff: { color: 'orange', text: 'Handed to a person' },
};

/** The owner writes as a customer and sees what the assistant would say, and from which FAQs. Nothing is sent. */
export function Playground({ status }: { status: AiStatus }) {
  const conversations = usePlayConversations();
  const [current, setCurrent] = useState<string | null>(null);
  const [locationId, setLocationId] = useState<string | null>(status.locations[0]?.location_id ?? null);
  const [text, setText] = useState('');
  const messages = usePlayMessages(current);
  const send = usePlaySend();

  const submit = () => {
    const message = text.trim();
    if (!message) return;
    send.mutate(
      { id: current, message, location_id: locationId },
      {
        onSuccess: (answer) => {
          setText('');
          setCurrent(answer.enquiry.id);
        },
      },
    );
  };

  return (
    <div className="ai-play">
      <Panel title="Conversations" flush>
        <div style={{ padding: 12 }}>
          <Button icon={<PlusOutlined />} block onClick={() => setCurrent(null)}>
            New conversation
          </Button>
        </div>
        <List
          size="small"
          dataSource={conversations.data ?? []}
          locale={{ emptyText: 'None yet' }}
          renderItem={(c) => (
            <List.Item
              onClick={() => setCurrent(c.id)}
              style={{ cursor: 'pointer', paddingInline: 16, fontWeight: c.id === current ? 600 : 400 }}
              aria-current={c.id === current}
            >
              {c.title}
            </List.Item>
          )}
        />
      </Panel>
      <Panel
        title="Try the assistant"
        extra={<Typography.Text type="secondary">Nothing here reaches a customer</Typography.Text>}
      >
        <div className="ai-play-thread" aria-live="polite">
          {current === null && (
            <Typography.Paragraph type="secondary">
              Write a question as a customer would. The assistant answers as it would in your inbox, and shows
              the FAQs it answered from.
            </Typography.Paragraph>
          )}
          {(current ? (messages.data ?? []) : []).map((m) => (
            <PlayLine key={m.id} message={m} locationId={locationId} thread={messages.data ?? []} />
          ))}
        </div>
        {send.isError && (
          <Alert type="error" showIcon message={failureText(send.error)} style={{ marginBottom: 8 }} />
        )}
        <div className="ai-play-compose">
          {status.locations.length > 1 && (
            <Select
              aria-label="Location"
              value={locationId}
              onChange={setLocationId}
              options={status.locations.map((l) => ({
                value: l.location_id,
                label: l.name ?? 'Unknown Location',
              }))}
              style={{ minWidth: 160 }}
            />
          )}
          <Input.TextArea
            aria-label="Customer's message"
            value={text}
            maxLength={AI_PLAY_MAX}
            autoSize={{ minRows: 1, maxRows: 4 }}
            placeholder="Do you have parking?"
            onChange={(e) => setText(e.target.value)}
            onPressEnter={(e) => {
              if (!e.shiftKey) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={send.isPending}
            disabled={!text.trim()}
            onClick={submit}
          >
            Ask
          </Button>
        </div>
      </Panel>
    </div>
  );
}

function PlayLine({
  message,
  locationId,
  thread,
}: {
  message: AiPlayMessage;
  locationId: string | null;
  thread: AiPlayMessage[];
}) {
  const rate = useRate();
  const [rated, setRated] = useState<'up' | 'down' | null>(null);
  const [feedback, setFeedback] = useState<string | null>(null);
  if (message.role === 'customer') {
    return (
      <div className="ai-play-line" data-role="customer">
        <p>{message.message}</p>
      </div>
    );
  }
  const ai = message.ai;
  const asked = thread[thread.findIndex((m) => m.id === message.id) - 1]?.message ?? '';
  const send = (rating: 'up' | 'down', text = '') =>
    rate.mutate(
      {
        message_id: message.id,
        rating,
        feedback: text,
        message: asked,
        response: message.message,
        location_id: locationId,
      },
      {
        onSuccess: () => {
          setRated(rating);
          setFeedback(null);
          notify.success('Thanks, noted');
        },
      },
    );
  return (
    <div className="ai-play-line" data-role="assistant">
      <p>{message.message}</p>
      {ai && (
        <div className="ai-play-meta">
          <Tag color={ACTION_TAG[ai.action].color}>{ACTION_TAG[ai.action].text}</Tag>
          {ai.sources.length > 0 ? (
            <span>Sources: {ai.sources.map((s) => `“${s.title}”`).join(', ')}</span>
          ) : (
            ai.action === 'answer' && <span>No source</span>
          )}
          <Button
            type="text"
            size="small"
            icon={<LikeOutlined />}
            aria-label="Good answer"
            aria-pressed={rated === 'up'}
            onClick={() => send('up')}
          />
          <Button
            type="text"
            size="small"
            icon={<DislikeOutlined />}
            aria-label="Bad answer"
            aria-pressed={rated === 'down'}
            onClick={() => setFeedback('')}
          />
        </div>
      )}
      {feedback !== null && (
        <div className="ai-play-feedback">
          <Input
            aria-label="What was wrong"
            placeholder="What was wrong with it?"
            value={feedback}
            maxLength={2000}
            onChange={(e) => setFeedback(e.target.value)}
            onPressEnter={() => send('down', feedback)}
          />
          <Button size="small" loading={rate.isPending} onClick={() => send('down', feedback)}>
            Send
          </Button>
        </div>
      )}
      {rate.isError && <Typography.Text type="danger">{failureText(rate.error)}</Typography.Text>}
    </div>
  );
}
