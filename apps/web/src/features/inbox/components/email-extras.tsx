import { WarningOutlined } from '@ant-design/icons';
import { formatFileSize } from '@switchboard/shared';
import { Button } from 'antd';
import DOMPurify from 'dompurify';
import { type ReactNode, useMemo, useState } from 'react';
import type { AutoKind, EmailMeta, SkippedAttachment, SkipReason, StoryMeta } from '../utils/message-meta.ts';
import './email-extras.css';

/**
 * The email's HTML, sanitised once more in the browser (the server already rebuilt it from an allow-list):
 * links open in a new tab without passing the inbox on; wide tables scroll inside their own box.
 */
export function EmailHtml({ html }: { html: string }) {
  const clean = useMemo(() => sanitiseEmailHtml(html), [html]);
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
    <div className="ib-email-html" data-testid="email-html" dangerouslySetInnerHTML={{ __html: clean }} />
  );
}

export function sanitiseEmailHtml(html: string): string {
  const fragment = DOMPurify.sanitize(html, {
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'button', 'iframe', 'svg', 'math'],
    FORBID_ATTR: ['style', 'class', 'id'],
    RETURN_DOM_FRAGMENT: true,
  });
  for (const a of fragment.querySelectorAll('a')) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer nofollow');
  }
  const box = document.createElement('div');
  box.append(fragment);
  return box.innerHTML;
}

/** The bubble's text, or the email as sent when its HTML says more; a small button switches between them. */
export function EmailBody({ text, html, fuller }: { text: ReactNode; html: string | null; fuller: boolean }) {
  const [original, setOriginal] = useState(false);
  if (!html || !fuller) return <>{text}</>;
  return (
    <>
      {original ? <EmailHtml html={html} /> : text}
      <Button
        className="ib-email-toggle"
        size="small"
        type="link"
        aria-pressed={original}
        onClick={() => setOriginal((o) => !o)}
      >
        {original ? 'Show text' : 'Show original'}
      </Button>
    </>
  );
}

const AUTO_LABELS: Record<AutoKind, string> = {
  'auto-reply': 'Automatic reply (out of office)',
  list: 'Mailing-list email',
  bulk: 'Bulk email',
  'auto-generated': 'Automatic email',
};

export function autoMailLabel(kind: AutoKind): string {
  return `${AUTO_LABELS[kind]} — nothing was sent back automatically`;
}

const names = (files: SkippedAttachment[], withSize: boolean) =>
  files.map((f) => (withSize ? `${f.name} (${formatFileSize(f.size)})` : f.name)).join(', ');

export function skippedLine(reason: SkipReason, files: SkippedAttachment[]): string {
  const n = files.length;
  if (reason === 'empty') return `${n === 1 ? '1 file' : `${n} files`} arrived empty: ${names(files, false)}`;
  if (reason === 'too_large') return `Not kept, larger than the upload limit: ${names(files, true)}`;
  return `Not kept, more than 30 files in one email: ${names(files, false)}`;
}

/** Quiet lines under an email: automatic mail, files that did not arrive, a delayed delivery. */
export function EmailNotes({ email }: { email: EmailMeta }) {
  const byReason = (['empty', 'too_large', 'too_many'] as const)
    .map((reason) => [reason, email.skippedAttachments.filter((f) => f.reason === reason)] as const)
    .filter(([, files]) => files.length > 0);
  return (
    <>
      {email.autoKind && <div className="ib-email-note">{autoMailLabel(email.autoKind)}</div>}
      {byReason.map(([reason, files]) => (
        <div key={reason} className="ib-email-note" data-kind="skipped">
          {skippedLine(reason, files)}
        </div>
      ))}
      {email.deliveryWarning && (
        <div className="ib-email-warning" role="status">
          <WarningOutlined style={{ marginTop: 3 }} aria-hidden="true" />
          <span>Delivery delayed: {email.deliveryWarning}</span>
        </div>
      )}
    </>
  );
}

/** For the message's meta line: the relay (a website form, a mailing service) that sent the customer's email. */
export function SentVia({ address }: { address: string }) {
  return (
    <>
      <span aria-hidden="true">·</span>
      <span className="ib-msg-via" title={`Sent through ${address} on the customer's behalf`}>
        via {address}
      </span>
    </>
  );
}

/** Above an Instagram message: the story it answered or mentioned the business in, with a link while it lasts. */
export function StoryLine({ story }: { story: StoryMeta }) {
  return (
    <div className="ib-email-note" data-kind="story">
      {story.kind === 'reply' ? 'Replied to your story' : 'Mentioned you in their story'}
      {story.url && (
        <>
          {' · '}
          <a href={story.url} target="_blank" rel="noopener noreferrer nofollow">
            View story
          </a>
        </>
      )}
    </div>
  );
}
