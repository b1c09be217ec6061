import {
  CloseOutlined,
  LoadingOutlined,
  PaperClipOutlined,
  SendOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { formatFileSize, MESSAGE_INPUT_HEIGHT } from '@switchboard/shared';
import { Button, Dropdown, type MenuProps, Tooltip } from 'antd';
import { type ChangeEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useDraft } from '../api/get-draft.ts';
import { useTemplates } from '../api/get-templates.ts';
import { useSendMessage } from '../api/send-message.ts';
import { useUploadFile } from '../api/upload-file.ts';
import { useDraftAutosave } from '../hooks/use-draft-autosave.ts';
import { useTypingSignal } from '../hooks/use-typing-signal.ts';
import type { Attachment, EnquiryRow, InboxUser } from '../types.ts';
import { newClientId } from '../utils/client-id.ts';
import { channelName } from './channel.tsx';
import { WhatsAppTemplateButton } from './whatsapp-template-button.tsx';

const MAX_ATTACHMENTS = 10;
const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const SEND_KEYS = IS_MAC ? '⌘ Enter' : 'Ctrl Enter';

type Uploading = { key: string; name: string; size: number };

const DRAFT_TEXT = {
  idle: '',
  saving: 'Saving draft…',
  saved: 'Draft saved',
  error: 'Draft not saved',
} as const;

/**
 * The reply box: message (starting at the spec's height of 150), a subject for email, attachments and
 * templates. Sends with the button or Ctrl/⌘+Enter; what is written is kept as a draft until sent.
 */
export function Composer({ enquiry, user }: { enquiry: EnquiryRow; user: InboxUser }) {
  const draft = useDraft(enquiry.id);
  const [text, setText] = useState('');
  const [subject, setSubject] = useState('');
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [uploading, setUploading] = useState<Uploading[]>([]);
  const [edited, setEdited] = useState(false);
  const [wantTemplates, setWantTemplates] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const restored = useRef(false);
  const subjectId = useId();
  const isEmail = enquiry.channel === 'email';

  const send = useSendMessage(user);
  const upload = useUploadFile();
  const templates = useTemplates(enquiry.id, wantTemplates);
  const typing = useTypingSignal(enquiry.id);
  const autosave = useDraftAutosave(
    enquiry.id,
    { message: text, subject: isEmail ? subject : undefined, attachmentIds: attachments.map((a) => a.id) },
    edited,
  );

  // The saved draft comes back when the enquiry is opened again, unless typing has already begun.
  useEffect(() => {
    if (restored.current || !draft.isSuccess) return;
    restored.current = true;
    if (edited || !draft.data) return;
    setText(draft.data.message);
    setSubject(draft.data.meta.subject ?? '');
    setAttachments(draft.data.attachments);
  }, [draft.isSuccess, draft.data, edited]);

  const edit = () => {
    setEdited(true);
    typing.keystroke();
  };

  const canSend = (text.trim().length > 0 || attachments.length > 0) && uploading.length === 0;

  const submit = async () => {
    if (!canSend) return;
    const snapshot = { text, subject, attachments };
    const clientId = newClientId();
    typing.stop();
    setText('');
    setAttachments([]);
    setEdited(false);
    await autosave.settle();
    autosave.reset();
    send.mutate(
      {
        enquiry,
        clientId,
        message: snapshot.text.trim(),
        subject: isEmail ? snapshot.subject.trim() || undefined : undefined,
        attachments: snapshot.attachments,
      },
      {
        // Refused (daily limit, a 422): the words come back to be fixed or sent later.
        onError: () => {
          setText((current) => (current ? current : snapshot.text));
          setAttachments((current) => (current.length ? current : snapshot.attachments));
          setEdited(true);
        },
      },
    );
    textRef.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void submit();
    }
  };

  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const room = MAX_ATTACHMENTS - attachments.length - uploading.length;
    const files = [...(e.target.files ?? [])].slice(0, Math.max(0, room));
    e.target.value = '';
    for (const file of files) {
      const key = newClientId();
      setUploading((u) => [...u, { key, name: file.name, size: file.size }]);
      upload.mutate(file, {
        onSuccess: (attachment) => {
          setAttachments((a) => [...a, attachment]);
          setEdited(true);
        },
        onSettled: () => setUploading((u) => u.filter((x) => x.key !== key)),
      });
    }
  };

  const insertTemplate = (body: string) => {
    const el = textRef.current;
    setEdited(true);
    if (!el || !text) {
      setText(body);
    } else {
      const start = el.selectionStart ?? text.length;
      const end = el.selectionEnd ?? text.length;
      setText(text.slice(0, start) + body + text.slice(end));
    }
    requestAnimationFrame(() => el?.focus());
  };

  const templateItems: MenuProps['items'] = useMemo(() => {
    if (templates.isPending) return [{ key: 'loading', label: 'Loading templates…', disabled: true }];
    if (templates.isError) return [{ key: 'error', label: 'Templates could not be loaded', disabled: true }];
    if (templates.data.length === 0) {
      return [
        {
          key: 'none',
          label: 'No templates yet. An owner can add them in Settings → Message templates.',
          disabled: true,
        },
      ];
    }
    return templates.data.map((t) => ({
      key: t.id,
      label: (
        <span className="ib-template-item">
          <strong>{t.name}</strong>
          <small>{t.rendered}</small>
        </span>
      ),
    }));
  }, [templates.isPending, templates.isError, templates.data]);

  const draftText = DRAFT_TEXT[autosave.state];

  return (
    <div className="ib-composer">
      <div className="ib-composer-box">
        {isEmail && (
          <div className="ib-composer-subject">
            <label htmlFor={subjectId}>Subject</label>
            <input
              id={subjectId}
              value={subject}
              onChange={(e) => {
                setSubject(e.target.value);
                edit();
              }}
              placeholder={enquiry.title ?? 'What this email is about'}
              style={{
                flex: 1,
                border: 0,
                outline: 'none',
                background: 'transparent',
                color: 'var(--ib-text)',
                font: 'inherit',
                padding: '8px 0',
              }}
            />
          </div>
        )}
        <textarea
          ref={textRef}
          aria-label="Message"
          placeholder={`Reply by ${channelName(enquiry.channel)}…`}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            edit();
          }}
          onKeyDown={onKeyDown}
          onBlur={typing.stop}
          style={{ height: MESSAGE_INPUT_HEIGHT }}
        />
        {(attachments.length > 0 || uploading.length > 0) && (
          <ul className="ib-composer-chips" aria-label="Attachments" style={{ listStyle: 'none', margin: 0 }}>
            {attachments.map((a) => (
              <li key={a.id} className="ib-chip">
                <PaperClipOutlined aria-hidden="true" />
                <span title={a.name}>{a.name}</span>
                <small>{formatFileSize(a.size)}</small>
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={`Remove ${a.name}`}
                  onClick={() => {
                    setAttachments((all) => all.filter((x) => x.id !== a.id));
                    setEdited(true);
                  }}
                />
              </li>
            ))}
            {uploading.map((u) => (
              <li key={u.key} className="ib-chip" aria-busy="true">
                <LoadingOutlined aria-hidden="true" />
                <span title={u.name}>{u.name}</span>
                <small>Uploading…</small>
              </li>
            ))}
          </ul>
        )}
        <div className="ib-composer-bar">
          <input ref={fileRef} type="file" multiple hidden onChange={onFiles} aria-label="Attach files" />
          <Tooltip title="Attach files">
            <Button
              type="text"
              icon={<PaperClipOutlined />}
              aria-label="Attach"
              disabled={attachments.length + uploading.length >= MAX_ATTACHMENTS}
              onClick={() => fileRef.current?.click()}
            />
          </Tooltip>
          <Dropdown
            trigger={['click']}
            onOpenChange={(open) => open && setWantTemplates(true)}
            menu={{
              items: templateItems,
              onClick: ({ key }) => {
                const template = templates.data?.find((t) => t.id === key);
                if (template) insertTemplate(template.rendered);
              },
            }}
          >
            <Button type="text" icon={<ThunderboltOutlined />}>
              Templates
            </Button>
          </Dropdown>
          {enquiry.channel === 'whatsapp' && <WhatsAppTemplateButton enquiryId={enquiry.id} />}
          <span className="ib-composer-hint" data-state={autosave.state} role="status">
            {draftText}
          </span>
          <Tooltip title={`Send (${SEND_KEYS})`}>
            <Button type="primary" icon={<SendOutlined />} disabled={!canSend} onClick={() => void submit()}>
              Send
            </Button>
          </Tooltip>
        </div>
      </div>
    </div>
  );
}
