import type { AiAutoReplyAction, AiAutoReplyOptions } from '@switchboard/shared';
import { Alert, InputNumber, Segmented, Switch, Typography } from 'antd';
import { Panel } from '@/components/panel.tsx';
import { failureText } from '@/lib/failure-text.ts';
import { type AiLocationSetting, type AiStatus, useToggleAutoReply } from '../api.ts';

const ACTIONS: { value: AiAutoReplyAction; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'suggest', label: 'Suggest' },
  { value: 'auto', label: 'Answer' },
];

const EXPLAIN: Record<AiAutoReplyAction, string> = {
  off: 'The assistant does not take part in this location’s conversations.',
  suggest: 'The assistant writes a reply for your team to use or change. Nothing is sent by itself.',
  auto: 'The assistant answers customers as the business, from your FAQs. When it is not sure it hands the conversation to your team and says so to the customer.',
};

/** Per location: whether the assistant answers, only suggests, or stays out, and how. */
export function AutoReplyPanel({ status, canManage }: { status: AiStatus; canManage: boolean }) {
  const toggle = useToggleAutoReply();
  const change = (l: AiLocationSetting, action: AiAutoReplyAction, options?: Partial<AiAutoReplyOptions>) =>
    toggle.mutate({ location_id: l.location_id, action, ...(options ? { options } : {}) });
  return (
    <div style={{ display: 'grid', gap: 16 }}>
      {toggle.isError && <Alert type="error" showIcon message={failureText(toggle.error)} />}
      {status.faq_count === 0 && (
        <Alert
          type="info"
          showIcon
          message="The assistant has no FAQs yet: until you add some, it hands every question to your team."
        />
      )}
      {status.locations.map((l) => {
        const name = l.name ?? 'Unknown Location';
        const busy = toggle.isPending && toggle.variables?.location_id === l.location_id;
        return (
          <Panel key={l.location_id} title={name}>
            <Segmented<AiAutoReplyAction>
              aria-label={`Assistant at ${name}`}
              value={l.action}
              disabled={!canManage || busy}
              options={ACTIONS}
              onChange={(action) => change(l, action)}
            />
            <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
              {EXPLAIN[l.action]}
            </Typography.Paragraph>
            {l.action !== 'off' && (
              <div className="ai-options">
                <div className="ai-option">
                  <Switch
                    size="small"
                    aria-label="Only when the location is closed"
                    checked={l.options.outside_hours_only}
                    disabled={!canManage || busy}
                    onChange={(on) => change(l, l.action, { outside_hours_only: on })}
                  />{' '}
                  Only when the location is closed
                </div>
                <div className="ai-option">
                  <Switch
                    size="small"
                    aria-label="Stop in a conversation once a person replies"
                    checked={l.options.pause_on_human_reply}
                    disabled={!canManage || busy}
                    onChange={(on) => change(l, l.action, { pause_on_human_reply: on })}
                  />{' '}
                  Stop in a conversation once a person replies
                </div>
                <div className="ai-option">
                  Wait{' '}
                  <InputNumber
                    size="small"
                    min={0}
                    max={600}
                    value={l.options.delay_seconds}
                    disabled={!canManage || busy}
                    aria-label="Seconds to wait before replying"
                    onChange={(v) => typeof v === 'number' && change(l, l.action, { delay_seconds: v })}
                  />{' '}
                  seconds before replying, so quick follow-up lines are answered together
                </div>
                {l.action === 'auto' && (
                  <div className="ai-option">
                    At most{' '}
                    <InputNumber
                      size="small"
                      min={1}
                      max={50}
                      value={l.options.max_replies}
                      disabled={!canManage || busy}
                      aria-label="Most assistant replies per conversation"
                      onChange={(v) => typeof v === 'number' && change(l, l.action, { max_replies: v })}
                    />{' '}
                    assistant replies per conversation, then a person takes over
                  </div>
                )}
              </div>
            )}
          </Panel>
        );
      })}
    </div>
  );
}
