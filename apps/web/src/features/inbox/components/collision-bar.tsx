import { EyeOutlined, FormOutlined } from '@ant-design/icons';
import type { Viewer } from '@switchboard/shared';
import { peopleSentence } from '../utils/format.ts';

/** Warns before two people answer the same customer: who else has it open, and who is writing. */
export function CollisionBar({ viewers, typists }: { viewers: Viewer[]; typists: Viewer[] }) {
  const viewing = peopleSentence(
    viewers.map((v) => v.full_name),
    'is also viewing',
    'are also viewing',
  );
  const writing = peopleSentence(
    typists.map((t) => t.full_name),
    'is typing…',
    'are typing…',
  );
  if (!viewing && !writing) return null;
  return (
    <div className="ib-collision" role="status" aria-live="polite">
      {viewing && (
        <span>
          <EyeOutlined aria-hidden="true" />
          {viewing}
        </span>
      )}
      {writing && (
        <span>
          <FormOutlined aria-hidden="true" />
          {writing}
          <span className="ib-typing-dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
        </span>
      )}
    </div>
  );
}
