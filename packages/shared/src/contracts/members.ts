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

export const RoleSchema = z.enum(['owner', 'staff'], 'The role is owner or staff');

/** `POST /business/members/invitations`: an email with a link to join the business. */
export const InviteRequest = z.strictObject({
  email: z
    .string()
    .trim()
    .max(320)
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v), 'Please enter a valid email address'),
  full_name: z.string().trim().max(200).nullish(),
  role: RoleSchema.default('staff'),
});

export const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  role: RoleSchema,
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export const InvitationList = z.object({ items: z.array(Invitation) });

/** `GET /business/invitations/{secret}`: what the link is for, before accepting. */
export const InvitationPreview = z.object({
  business_name: z.string(),
  email: z.string(),
  role: RoleSchema,
  invited_by: z.string().nullable(),
  /** The address has a Switchboard account already: accepting takes its password, not a new one. */
  has_account: z.boolean(),
});

/** `POST /business/invitations/{secret}/accept` */
export const AcceptInvitationRequest = z.strictObject({
  full_name: z.string().trim().max(200).nullish(),
  password: z.string().min(1, 'Please enter a password').max(1024),
});
