import { memberName, useMembers } from '../api/get-members.ts';
import { PersonAvatar } from './person-avatar.tsx';

/**
 * Who has the enquiry, on its row: "You", or the teammate's avatar and first name (the full name on hover),
 * from the business's people (one cached list for every row).
 */
export function RowAssignee({ assignedTo, userId }: { assignedTo: string; userId: string }) {
  const members = useMembers();
  if (assignedTo === userId) return <span className="ib-assignee">You</span>;
  const name = memberName(members.data, assignedTo) ?? 'Assigned';
  const avatar = members.data?.find((m) => m.user_id === assignedTo)?.avatar ?? null;
  return (
    <span className="ib-assignee" title={`Assigned to ${name}`}>
      <PersonAvatar name={name} seed={assignedTo} size={16} src={avatar} />
      <span className="sr-only">Assigned to </span>
      {name.split(' ')[0]}
    </span>
  );
}
