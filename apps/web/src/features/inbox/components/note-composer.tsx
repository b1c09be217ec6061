import { LockOutlined } from '@ant-design/icons';
import { Button, Mentions } from 'antd';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import { useMembers } from '../api/get-members.ts';
import { useAddNote } from '../api/notes.ts';
import type { EnquiryRow } from '../types.ts';

/**
 * A private note for the team: typed like a reply, "@" suggests teammates (each one mentioned is told), and
 * it is never sent to the customer.
 */
export function NoteComposer({ enquiry, modeSwitch }: { enquiry: EnquiryRow; modeSwitch: ReactNode }) {
  const [text, setText] = useState('');
  const members = useMembers();
  const add = useAddNote(enquiry.id);
  const body = text.trim();

  const submit = () => {
    if (!body || add.isPending) return;
    const mentions = (members.data ?? [])
      .filter((m) => m.full_name && body.includes(`@${m.full_name}`))
      .map((m) => m.user_id);
    add.mutate({ body, mentions }, { onSuccess: () => setText('') });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <div className="ib-composer">
      <div className="ib-composer-box ib-note-composer">
        <Mentions
          aria-label="Private note"
          placeholder="A note only your team sees. Type @ to mention a teammate…"
          value={text}
          onChange={setText}
          onKeyDown={onKeyDown}
          autoSize={{ minRows: 4, maxRows: 10 }}
          variant="borderless"
          options={(members.data ?? []).map((m) => ({
            value: m.full_name,
            label: m.full_name || m.email,
            key: m.user_id,
          }))}
        />
        {add.isError && (
          <p className="ib-chip-error" role="alert" style={{ margin: '0 12px 6px', fontSize: 12 }}>
            The note was not saved. {failureText(add.error)}
          </p>
        )}
        <div className="ib-composer-bar">
          {modeSwitch}
          <span className="ib-composer-hint">
            <LockOutlined aria-hidden="true" /> Never sent to the customer
          </span>
          <Button type="primary" disabled={!body} loading={add.isPending} onClick={submit}>
            Add note
          </Button>
        </div>
      </div>
    </div>
  );
}
