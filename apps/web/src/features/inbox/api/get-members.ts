import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '@/lib/api-client.ts';
import type { Member } from '../types.ts';

/** The people of the selected business, by name: who an enquiry can be assigned to. */
export async function getMembers(): Promise<Member[]> {
  const { data } = await api.get<Envelope<{ items: Member[] }>>('/business/members');
  return data.body.items;
}

export const getMembersQueryOptions = () =>
  queryOptions({ queryKey: ['business', 'members'], queryFn: getMembers, staleTime: 5 * 60_000 });

export function useMembers({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getMembersQueryOptions(), enabled });
}

/** A member's name for the header and chips; someone no longer in the business is "a former teammate". */
export function memberName(members: readonly Member[] | undefined, userId: string): string | undefined {
  const m = members?.find((x) => x.user_id === userId);
  return m ? m.full_name || m.email : members ? 'a former teammate' : undefined;
}
