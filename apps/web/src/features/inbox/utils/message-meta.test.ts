import { describe, expect, it } from 'vitest';
import { readEmailMeta } from './message-meta.ts';

describe('readEmailMeta', () => {
  it('reads every email field when it has the right shape', () => {
    const inbound = readEmailMeta(
      {
        html: '<p>Hi</p>',
        html_fuller: true,
        auto_submitted: true,
        auto_kind: 'list',
        skipped_attachments: [{ name: 'a.pdf', size: 0, reason: 'empty' }],
        sent_by: 'no-reply@forms.example',
      },
      'in',
    );
    expect(inbound).toEqual({
      html: '<p>Hi</p>',
      htmlFuller: true,
      autoKind: 'list',
      skippedAttachments: [{ name: 'a.pdf', size: 0, reason: 'empty' }],
      deliveryWarning: null,
      sentBy: 'no-reply@forms.example',
    });
    expect(readEmailMeta({ delivery_warning: '451 4.4.1 Timed out' }, 'out').deliveryWarning).toBe(
      '451 4.4.1 Timed out',
    );
  });

  it('ignores fields of the wrong shape or on the wrong side of the conversation', () => {
    const junk = readEmailMeta(
      {
        html: 42,
        html_fuller: 'yes',
        auto_submitted: 'true',
        auto_kind: 'list',
        skipped_attachments: [
          { name: 'x', size: '1', reason: 'empty' },
          { name: 'y', size: 1, reason: 'lost' },
          null,
        ],
        sent_by: ['a'],
        delivery_warning: 'delayed',
      },
      'in',
    );
    expect(junk).toEqual({
      html: null,
      htmlFuller: false,
      autoKind: null,
      skippedAttachments: [],
      deliveryWarning: null,
      sentBy: null,
    });
    expect(readEmailMeta({ html_fuller: true }, 'in').htmlFuller).toBe(false);
    expect(readEmailMeta({ auto_submitted: true, auto_kind: 'list', sent_by: 'x@y' }, 'out')).toMatchObject({
      autoKind: null,
      sentBy: null,
    });
    expect(readEmailMeta(null, 'in').skippedAttachments).toEqual([]);
  });

  it('an automatic email of a kind it does not know still counts as automatic', () => {
    expect(readEmailMeta({ auto_submitted: true, auto_kind: 'robot' }, 'in').autoKind).toBe('auto-generated');
  });
});
