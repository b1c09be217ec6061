// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readEmailMeta, readStory, unsentAt } from '../utils/message-meta.ts';
import { EmailBody, EmailNotes, SentVia, StoryLine, sanitiseEmailHtml } from './email-extras.tsx';

afterEach(cleanup);

const HTML =
  '<p>Prices</p><table><tbody><tr><td>Clean</td><td>$145</td></tr></tbody></table><a href="https://example.com/p">price page</a>';

describe('EmailBody', () => {
  it('shows the text, and the HTML as sent on "Show original", and back on "Show text"', () => {
    render(<EmailBody text="Prices Clean $145" html={HTML} fuller />);
    expect(screen.getByText('Prices Clean $145')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show original' }));
    expect(screen.getByRole('table')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'price page' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(screen.queryByText('Prices Clean $145')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Show text' }));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Prices Clean $145')).toBeTruthy();
  });

  it('offers nothing when the HTML says no more than the text', () => {
    render(<EmailBody text="Hello" html="<p>Hello</p>" fuller={false} />);
    expect(screen.getByText('Hello')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('sanitiseEmailHtml', () => {
  it('drops scripts, handlers, images, styles and javascript: links the server should already have removed', () => {
    const out = sanitiseEmailHtml(
      '<p onclick="x()" style="color:red">Hi</p><script>alert(1)</script><img src="https://t.example/p.gif"><a href="javascript:alert(1)">bad</a><a href="https://ok.example" target="_self" rel="opener">ok</a>',
    );
    expect(out).not.toMatch(/script|onclick|style=|<img|javascript:/);
    expect(out).toContain('<p>Hi</p>');
    expect(out).toContain('href="https://ok.example"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
    expect(out).not.toContain('_self');
  });
});

describe('EmailNotes', () => {
  const notes = (meta: Record<string, unknown>, direction: 'in' | 'out' = 'in') =>
    render(<EmailNotes email={readEmailMeta(meta, direction)} />);

  it.each([
    ['auto-reply', 'Automatic reply (out of office) — nothing was sent back automatically'],
    ['list', 'Mailing-list email — nothing was sent back automatically'],
    ['bulk', 'Bulk email — nothing was sent back automatically'],
    ['auto-generated', 'Automatic email — nothing was sent back automatically'],
  ])('labels automatic mail of kind %s', (kind, label) => {
    notes({ auto_submitted: true, auto_kind: kind });
    expect(screen.getByText(label)).toBeTruthy();
  });

  it('says which files did not arrive, one line per reason', () => {
    notes({
      skipped_attachments: [
        { name: 'a.pdf', size: 0, reason: 'empty' },
        { name: 'b.pdf', size: 0, reason: 'empty' },
        { name: 'video.mov', size: 40 * 1024 * 1024, reason: 'too_large' },
        { name: 'scan31.jpg', size: 1000, reason: 'too_many' },
      ],
    });
    expect(screen.getByText('2 files arrived empty: a.pdf, b.pdf')).toBeTruthy();
    expect(
      screen.getByText(/^Not kept, larger than the upload limit: video\.mov \(40(\.0)? MB\)$/),
    ).toBeTruthy();
    expect(screen.getByText('Not kept, more than 30 files in one email: scan31.jpg')).toBeTruthy();
  });

  it('warns of a delayed delivery on a sent email, not as a failure', () => {
    notes({ delivery_warning: '451 4.4.1 Connection timed out' }, 'out');
    const warning = screen.getByRole('status');
    expect(warning.textContent).toBe('Delivery delayed: 451 4.4.1 Connection timed out');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows nothing for an ordinary email', () => {
    const { container } = notes({ subject: 'Hi' });
    expect(container.textContent).toBe('');
  });
});

describe('SentVia', () => {
  it('names the relay that sent an inbound email', () => {
    const { sentBy } = readEmailMeta({ sent_by: 'no-reply@forms.example' }, 'in');
    render(<div>{sentBy && <SentVia address={sentBy} />}</div>);
    expect(screen.getByText('via no-reply@forms.example')).toBeTruthy();
  });
});

describe('Instagram stories and unsends', () => {
  it('says which story a message answered, linking it only when the link is https', () => {
    const reply = readStory({ story: { kind: 'reply', url: 'https://cdn.example/s/1', id: '1' } });
    render(<StoryLine story={reply!} />);
    expect(screen.getByText(/Replied to your story/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View story' }).getAttribute('href')).toBe(
      'https://cdn.example/s/1',
    );
    cleanup();
    render(<StoryLine story={readStory({ story: { kind: 'mention', url: 'javascript:alert(1)' } })!} />);
    expect(screen.getByText('Mentioned you in their story')).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('reads only well-formed fields', () => {
    expect(readStory({ story: { kind: 'other' } })).toBeNull();
    expect(readStory({})).toBeNull();
    expect(unsentAt({ unsent_at: '2026-11-28T10:00:00.000Z' })).toBe('2026-11-28T10:00:00.000Z');
    expect(unsentAt({ unsent_at: 5 })).toBeNull();
  });
});
