import { Segmented } from 'antd';
import { type ReactNode, type Ref, useState } from 'react';
import type { EnquiryRow, InboxUser } from '../types.ts';
import { Composer, type ComposerHandle } from './composer.tsx';
import { NoteComposer } from './note-composer.tsx';

/** Under the thread: the reply to the customer, or a private note for the team (both kept while switching). */
export function ReplyArea({
  enquiry,
  user,
  composerRef,
  actions,
}: {
  enquiry: EnquiryRow;
  user: InboxUser;
  composerRef: Ref<ComposerHandle>;
  actions?: (enquiry: EnquiryRow) => ReactNode;
}) {
  const [mode, setMode] = useState<'reply' | 'note'>('reply');
  const modeSwitch = (
    <Segmented
      size="small"
      aria-label="Write a reply or a private note"
      value={mode}
      onChange={(value) => setMode(value as 'reply' | 'note')}
      options={[
        { value: 'reply', label: 'Reply' },
        { value: 'note', label: 'Note' },
      ]}
    />
  );
  return (
    <>
      <div hidden={mode !== 'reply'}>
        <Composer
          key={enquiry.id}
          ref={composerRef}
          enquiry={enquiry}
          user={user}
          modeSwitch={modeSwitch}
          actions={actions?.(enquiry)}
        />
      </div>
      {mode === 'note' && <NoteComposer enquiry={enquiry} modeSwitch={modeSwitch} />}
    </>
  );
}
