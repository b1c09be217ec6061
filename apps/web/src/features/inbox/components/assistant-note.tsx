import { DislikeOutlined, LikeOutlined } from '@ant-design/icons';
import type { AiReplyMeta } from '@switchboard/shared';
import { Button, Input, Popover } from 'antd';
import { useState } from 'react';
import { rateAssistant } from '../api/assistant.ts';
import type { MessageDto } from '../types.ts';

/** What the assistant relied on for a reply it sent, and a thumbs up or down on it. */
export function AssistantNote({ message, ai }: { message: MessageDto; ai: AiReplyMeta }) {
  const [rated, setRated] = useState<'up' | 'down' | null>(null);
  const [why, setWhy] = useState('');
  const [asking, setAsking] = useState(false);
  const rate = async (rating: 'up' | 'down', feedback = '') => {
    try {
      await rateAssistant({
        message_id: message.id,
        enquiry_id: message.enquiry_id,
        rating,
        feedback,
        response: message.message,
      });
      setRated(rating);
      setAsking(false);
    } catch {
      // The request's own notice says what went wrong; the buttons stay as they were.
    }
  };
  return (
    <div className="ib-ai-note">
      <span>
        {ai.action === 'handoff'
          ? 'The assistant handed this conversation to your team.'
          : ai.sources.length
            ? `From ${ai.sources.map((s) => `“${s.title}”`).join(', ')}`
            : 'The assistant asked what the customer needs.'}
      </span>
      <Button
        type="text"
        size="small"
        icon={<LikeOutlined />}
        aria-label="Good reply from the assistant"
        aria-pressed={rated === 'up'}
        onClick={() => void rate('up')}
      />
      <Popover
        trigger="click"
        open={asking}
        onOpenChange={setAsking}
        title="What was wrong with it?"
        content={
          <div style={{ display: 'flex', gap: 6 }}>
            <Input
              aria-label="What was wrong"
              value={why}
              maxLength={2000}
              onChange={(e) => setWhy(e.target.value)}
              onPressEnter={() => void rate('down', why)}
            />
            <Button size="small" onClick={() => void rate('down', why)}>
              Send
            </Button>
          </div>
        }
      >
        <Button
          type="text"
          size="small"
          icon={<DislikeOutlined />}
          aria-label="Bad reply from the assistant"
          aria-pressed={rated === 'down'}
        />
      </Popover>
    </div>
  );
}
