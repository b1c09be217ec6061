import { z } from 'zod';

/** `GET /business/members`: the people of the selected business, who an enquiry can be assigned to. */
export const Member = z.object({
  user_id: z.string(),
  full_name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(['owner', 'staff']),
});
export type MemberDto = z.input<typeof Member>;
export const MemberList = z.object({ items: z.array(Member) });
