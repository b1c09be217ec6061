import {
  BulbOutlined,
  CommentOutlined,
  EditOutlined,
  LoadingOutlined,
  MessageOutlined,
  PaperClipOutlined,
  SendOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { SendCollision } from '@switchboard/shared';
import { Button, Dropdown, type MenuProps, Popover, Tooltip } from 'antd';
import {
  type ChangeEvent,
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import { SegmentedMessage } from 'sms-segments-calculator';
import { failureText } from '@/lib/failure-text.ts';
import { type AiSource, faqsByIds, rewriteReply, suggestReply } from '../api/assistant.ts';
import { useDailyUsage } from '../api/daily-usage.ts';
import { useDraft } from '../api/get-draft.ts';
import { useReplyRoute } from '../api/get-reply-route.ts';
import { useTemplates } from '../api/get-templates.ts';
import { useSendMessage } from '../api/send-message.ts';
import { useAttachments } from '../hooks/use-attachments.ts';
import { useDraftAutosave } from '../hooks/use-draft-autosave.ts';
import { useReplyBoxHeight } from '../hooks/use-reply-box-height.ts';
import { useSeenMessage } from '../hooks/use-seen-message.ts';
import { useTypingSignal } from '../hooks/use-typing-signal.ts';
import type { EnquiryRow, InboxUser } from '../types.ts';
import { newClientId } from '../utils/client-id.ts';
import { usageNotice } from '../utils/usage-notice.ts';
import { AttachmentChips } from './attachment-chips.tsx';
import { replyPlaceholder } from './channel.tsx';
import { RepliedMeanwhilePrompt } from './replied-meanwhile-prompt.tsx';
import { WhatsAppTemplateButton } from './whatsapp-template-button.tsx';

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const SEND_KEYS = IS_MAC ? '⌘ Enter' : 'Ctrl Enter';

/** What the enquiry view hands the composer: files dropped anywhere on the conversation. */
export type ComposerHandle = { addFiles(files: File[]): void };

/** What the assistant did to the text in the box: wrote it, or rewrote the person's, and from which FAQs. */
type AiState = { interaction: 'ai_generated' | 'ai_rewritten'; original: string | null; sources: AiSource[] };

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
export function Composer({
  enquiry,
  user,
  ref,
  modeSwitch,
  actions,
}: {
  enquiry: EnquiryRow;
  user: InboxUser;
  ref?: Ref<ComposerHandle>;
  /** Reply or private note: shown at the start of the bar. */
  modeSwitch?: ReactNode;
  /** More of the bar from other parts of the app (invoices). */
  actions?: ReactNode;
}) {
  const draft = useDraft(enquiry.id);
  const [text, setText] = useState('');
  const [subject, setSubject] = useState('');
  const [edited, setEdited] = useState(false);
  const [wantTemplates, setWantTemplates] = useState(false);
  const [ai, setAi] = useState<AiState | null>(null);
  const [aiBusy, setAiBusy] = useState<'suggest' | 'rewrite' | null>(null);
  const [aiNote, setAiNote] = useState<string | null>(null);
  const [collision, setCollision] = useState<SendCollision | null>(null);
  const seen = useSeenMessage(enquiry.id);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const restored = useRef(false);
  const subjectId = useId();
  const isEmail = enquiry.channel === 'email';

  const send = useSendMessage();
  const usage = usageNotice(useDailyUsage().data);
  const markEdited = useCallback(() => setEdited(true), []);
  const files = useAttachments(markEdited);
  const { attachments } = files;
  const templates = useTemplates(enquiry.id, wantTemplates);
  const route = useReplyRoute(enquiry.id, enquiry.channel).data;
  const typing = useTypingSignal(enquiry.id);
  const boxHeight = useReplyBoxHeight(textRef, text);
  const autosave = useDraftAutosave(
    enquiry.id,
    {
      message: text,
      subject: isEmail ? subject : undefined,
      attachmentIds: attachments.map((a) => a.id),
      ai: ai && { interaction: ai.interaction, original: ai.original },
    },
    edited,
  );

  // The saved draft comes back when the enquiry is opened again, unless typing has already begun.
  useEffect(() => {
    if (restored.current || !draft.isSuccess) return;
    restored.current = true;
    if (edited || !draft.data) return;
    setText(draft.data.message);
    setSubject(draft.data.meta.subject ?? '');
    files.reset(draft.data.attachments);
    if (draft.data.ai_interaction) {
      setAi({ interaction: draft.data.ai_interaction, original: draft.data.ai_original, sources: [] });
    }
  }, [draft.isSuccess, draft.data, edited, files.reset]);

  const edit = () => {
    setEdited(true);
    typing.keystroke();
    seen.writing();
  };

  const canSend = (text.trim().length > 0 || attachments.length > 0) && !files.uploading && !files.failed;

  const addFiles = (picked: File[]) => {
    if (picked.length) files.add(picked);
  };
  useImperativeHandle(ref, () => ({ addFiles }));

  const submit = async ({ sendAnyway = false } = {}) => {
    if (!canSend) return;
    const snapshot = { text, subject, attachments, ai };
    const clientId = newClientId();
    const seenMessageId = seen.take();
    seen.seen(undefined);
    setCollision(null);
    typing.stop();
    setText('');
    setAi(null);
    setAiNote(null);
    files.reset([]);
    setEdited(false);
    await autosave.settle();
    autosave.reset();
    // A send that fails stays in the thread marked "not sent", with the reason and a retry.
    send.mutate({
      user,
      enquiry,
      clientId,
      message: snapshot.text.trim(),
      subject: isEmail ? snapshot.subject.trim() || undefined : undefined,
      attachments: snapshot.attachments,
      ai: snapshot.ai && { interaction: snapshot.ai.interaction, original: snapshot.ai.original },
      seenMessageId,
      sendAnyway,
      // Someone else answered meanwhile: the reply comes back to the box (after anything typed since).
      onCollision: (found) => {
        setText((now) => (now.trim() ? `${now}\n\n${snapshot.text}` : snapshot.text));
        setSubject((now) => now || snapshot.subject);
        if (snapshot.attachments.length) files.reset(snapshot.attachments);
        setAi(snapshot.ai);
        setEdited(true);
        seen.seen(found.reply.id);
        setCollision(found);
      },
    });
    textRef.current?.focus();
  };

  /** Puts the assistant's text in the box (the server has kept it as this person's draft already). */
  const takeAi = (message: string, state: AiState) => {
    setText(message);
    setAi(state);
    setEdited(false);
    requestAnimationFrame(() => textRef.current?.focus());
  };

  const suggest = async () => {
    setAiBusy('suggest');
    setAiNote(null);
    try {
      const answer = await suggestReply(enquiry.id);
      if (answer.message) {
        takeAi(answer.message, {
          interaction: 'ai_generated',
          original: null,
          sources: answer.ai?.sources ?? [],
        });
      } else {
        setAiNote(
          answer.ai?.action === 'handoff'
            ? "The assistant can't answer this from the business's FAQs: it needs a person."
            : 'There is no message from the customer to reply to yet.',
        );
      }
    } catch (error) {
      setAiNote(`No suggestion. ${failureText(error)}`);
    } finally {
      setAiBusy(null);
    }
  };

  const rewrite = async () => {
    if (!text.trim()) return setAiNote('Write something first, then Rewrite tidies it.');
    setAiBusy('rewrite');
    setAiNote(null);
    try {
      const answer = await rewriteReply(enquiry.id, text);
      takeAi(answer.message, { interaction: 'ai_rewritten', original: answer.ai_original, sources: [] });
    } catch (error) {
      setAiNote(`Not rewritten. ${failureText(error)}`);
    } finally {
      setAiBusy(null);
    }
  };

  const suggestion = enquiry.ai_suggestion;
  const showSuggestion = !!suggestion && suggestion.action !== 'handoff' && !text.trim();

  // "/" and a few letters at the start of a word offer the templates whose names match.
  const [slash, setSlash] = useState<{ query: string; start: number; active: number } | null>(null);
  const slashMatches = useMemo(() => {
    if (!slash || !templates.data) return [];
    const q = slash.query.toLowerCase();
    return templates.data.filter((t) => t.name.toLowerCase().includes(q)).slice(0, 6);
  }, [slash, templates.data]);
  const readSlash = (value: string, caret: number) => {
    const before = value.slice(0, caret);
    const match = /(^|\s)\/([\w-]{0,30})$/.exec(before);
    if (!match) return setSlash(null);
    setWantTemplates(true);
    setSlash((current) => ({
      query: match[2] ?? '',
      start: caret - (match[2]?.length ?? 0) - 1,
      active: current?.active ?? 0,
    }));
  };
  const insertSlash = (body: string) => {
    if (!slash) return;
    const el = textRef.current;
    const caret = el?.selectionStart ?? text.length;
    const next = text.slice(0, slash.start) + body + text.slice(caret);
    setText(next);
    setSlash(null);
    setEdited(true);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(slash.start + body.length, slash.start + body.length);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash && slashMatches.length) {
      const n = slashMatches.length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : n - 1;
        return setSlash({ ...slash, active: (slash.active + step) % n });
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        const chosen = slashMatches[Math.min(slash.active, n - 1)];
        return chosen ? insertSlash(chosen.rendered) : undefined;
      }
    }
    if (slash && e.key === 'Escape') {
      e.preventDefault();
      return setSlash(null);
    }
    const sends = user.sendOnEnter ? !e.shiftKey && !e.nativeEvent.isComposing : e.ctrlKey || e.metaKey;
    if (e.key === 'Enter' && sends) {
      e.preventDefault();
      void submit();
    }
  };

  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    addFiles([...(e.target.files ?? [])]);
    e.target.value = '';
  };

  // Images (or files) pasted from the clipboard are attached; pasted text stays text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = [...e.clipboardData.files];
    if (!pasted.length) return;
    e.preventDefault();
    addFiles(pasted);
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
      {route?.detail && (
        <p className="ib-reply-route" data-route={route.route} role="status">
          {route.route === 'sms' ? (
            <MessageOutlined aria-hidden="true" />
          ) : (
            <CommentOutlined aria-hidden="true" />
          )}{' '}
          {route.detail}
        </p>
      )}
      {showSuggestion && suggestion && (
        <section className="ib-ai-suggestion" aria-label="Assistant's suggestion">
          <BulbOutlined aria-hidden="true" />
          <p>{suggestion.message}</p>
          <Button
            size="small"
            onClick={() =>
              takeAi(suggestion.message, {
                interaction: 'ai_generated',
                original: null,
                sources: suggestion.sources,
              })
            }
          >
            Use reply
          </Button>
        </section>
      )}
      {collision && (
        <RepliedMeanwhilePrompt
          collision={collision}
          onSendAnyway={() => void submit({ sendAnyway: true })}
          onEdit={() => {
            setCollision(null);
            textRef.current?.focus();
          }}
        />
      )}
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
        {(ai || aiNote) && (
          <div className="ib-ai-line" role="status">
            {aiNote ? (
              <span>{aiNote}</span>
            ) : ai?.interaction === 'ai_rewritten' ? (
              <span>
                Rewritten by the assistant.{' '}
                <Button
                  type="link"
                  size="small"
                  onClick={() => {
                    setText(ai.original ?? '');
                    setAi(null);
                    setEdited(true);
                  }}
                >
                  Undo
                </Button>
              </span>
            ) : (
              <span>
                Suggested by the assistant
                {ai?.sources.length ? (
                  <>
                    {' '}
                    from{' '}
                    {ai.sources.map((source) => (
                      <SourceLink key={source.id} source={source} />
                    ))}
                  </>
                ) : null}
                . Check it before sending.
              </span>
            )}
          </div>
        )}
        {slash && (
          <div id={`${subjectId}-templates`} className="ib-slash" role="listbox" aria-label="Templates">
            {templates.isPending ? (
              <div className="ib-slash-empty">Loading templates…</div>
            ) : slashMatches.length === 0 ? (
              <div className="ib-slash-empty">No template matches “{slash.query}”</div>
            ) : (
              slashMatches.map((t, i) => (
                <div
                  key={t.id}
                  id={`${subjectId}-template-${i}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === slash.active}
                  className="ib-slash-item"
                  onMouseDown={(e) => {
                    e.preventDefault();
                    insertSlash(t.rendered);
                  }}
                >
                  <strong>{t.name}</strong>
                  <small>{t.rendered}</small>
                </div>
              ))
            )}
          </div>
        )}
        <textarea
          ref={textRef}
          aria-label="Message"
          placeholder={
            route?.route === 'chat'
              ? 'Reply in the website chat…'
              : route?.route === 'sms'
                ? 'Reply by SMS…'
                : route?.route === 'waiting'
                  ? 'Reply (it waits in the website chat)…'
                  : replyPlaceholder(enquiry.channel)
          }
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            readSlash(e.target.value, e.target.selectionStart ?? e.target.value.length);
            edit();
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => {
            typing.stop();
            // After a click on a suggestion has been handled.
            setTimeout(() => setSlash(null), 150);
          }}
          aria-activedescendant={
            slash && slashMatches.length ? `${subjectId}-template-${slash.active}` : undefined
          }
          style={{ height: boxHeight }}
        />
        <AttachmentChips files={files} />
        {usage && (
          <div className="ib-usage" data-reached={usage.reached} role="status">
            {usage.text}
          </div>
        )}
        <div className="ib-composer-bar">
          {modeSwitch}
          <input ref={fileRef} type="file" multiple hidden onChange={onFiles} aria-label="Attach files" />
          <Tooltip title="Attach files">
            <Button
              type="text"
              icon={<PaperClipOutlined />}
              aria-label="Attach"
              disabled={files.full}
              onClick={() => fileRef.current?.click()}
            />
          </Tooltip>
          <Dropdown
            trigger={['click']}
            // The reply box is at the bottom of the screen: its menu opens upwards, over the thread.
            placement="topLeft"
            onOpenChange={(open) => open && setWantTemplates(true)}
            menu={{
              items: templateItems,
              onClick: ({ key }) => {
                const template = templates.data?.find((t) => t.id === key);
                if (template) insertTemplate(template.rendered);
              },
            }}
          >
            <Button type="text" icon={<ThunderboltOutlined />} aria-label="Templates">
              <span className="ib-bar-label">Templates</span>
            </Button>
          </Dropdown>
          <Tooltip title="The assistant writes a reply to the customer's last message">
            <Button
              type="text"
              icon={aiBusy === 'suggest' ? <LoadingOutlined /> : <BulbOutlined />}
              aria-label="Suggest reply"
              disabled={aiBusy !== null}
              onClick={() => void suggest()}
            >
              <span className="ib-bar-label">Suggest</span>
            </Button>
          </Tooltip>
          <Tooltip title="Tidy what you wrote: spelling, capitals, a greeting and sign-off">
            <Button
              type="text"
              icon={aiBusy === 'rewrite' ? <LoadingOutlined /> : <EditOutlined />}
              aria-label="Rewrite"
              disabled={aiBusy !== null || !text.trim()}
              onClick={() => void rewrite()}
            >
              <span className="ib-bar-label">Rewrite</span>
            </Button>
          </Tooltip>
          {enquiry.channel === 'whatsapp' && <WhatsAppTemplateButton enquiryId={enquiry.id} />}
          {actions}
          {(enquiry.channel === 'sms' || enquiry.channel === 'mms' || route?.route === 'sms') && (
            <SmsCount text={text} />
          )}
          <span className="ib-composer-hint" data-state={autosave.state} role="status">
            {draftText}
          </span>
          <Tooltip
            title={user.sendOnEnter ? 'Send (Enter; Shift+Enter for a new line)' : `Send (${SEND_KEYS})`}
          >
            <Button
              type="primary"
              icon={<SendOutlined />}
              aria-label="Send"
              disabled={!canSend}
              onClick={() => void submit()}
            >
              <span className="ib-bar-label">Send</span>
            </Button>
          </Tooltip>
        </div>
      </div>
    </div>
  );
}

/**
 * How long the reply is as text messages: characters and segments, GSM-7 or (with an emoji or a character
 * outside GSM-7) Unicode, whose segments hold fewer characters — counted as carriers count them.
 */
function SmsCount({ text }: { text: string }) {
  const count = useMemo(() => {
    const trimmed = text.trim();
    if (!trimmed) return null;
    const message = new SegmentedMessage(trimmed);
    return {
      characters: message.numberOfCharacters,
      segments: message.segmentsCount,
      unicode: message.encodingName !== 'GSM-7',
    };
  }, [text]);
  if (!count) return null;
  return (
    <span
      className="ib-sms-count"
      data-unicode={count.unicode}
      title={
        count.unicode
          ? 'Unicode (an emoji or a character outside GSM-7): 70 characters per text, 67 when split'
          : 'GSM-7: 160 characters per text, 153 when split'
      }
    >
      {count.characters} chars · {count.segments} SMS{count.unicode ? ' · Unicode' : ''}
    </span>
  );
}

/** A source of a suggested reply: opens to show the FAQ the assistant answered from. */
function SourceLink({ source }: { source: AiSource }) {
  const [faq, setFaq] = useState<{ question: string; answer: string } | 'missing' | null>(null);
  const load = async (open: boolean) => {
    if (!open || faq || source.kind !== 'faq') return;
    const [found] = await faqsByIds([source.id]).catch(() => []);
    setFaq(found ?? 'missing');
  };
  const content =
    source.kind === 'flow' ? (
      <span>A flow set up in the assistant's settings.</span>
    ) : source.kind !== 'faq' ? (
      <span>A part of an uploaded document.</span>
    ) : faq === null ? (
      <span>Loading…</span>
    ) : faq === 'missing' ? (
      <span>This FAQ has since been deleted.</span>
    ) : (
      <div className="ib-ai-faq">
        <strong>{faq.question}</strong>
        <p>{faq.answer}</p>
      </div>
    );
  return (
    <Popover trigger="click" title="Answered from" content={content} onOpenChange={(open) => void load(open)}>
      <button type="button" className="ib-ai-source">
        “{source.title}”
      </button>
    </Popover>
  );
}
