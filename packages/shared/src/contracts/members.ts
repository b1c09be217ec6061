import { z } from 'zod';

/** `GET /business/members`: the people of the selected business, who an enquiry can be assigned to. */
export const Member = z.object({
  user_id: z.string(),
  full_name: z.string(),
  email: z.string(),
  avatar: z.string().nullable(),
  role: z.enum(['owner', 'staff']),
  /** False: a team member who works only at `location_ids`. Owners always work at every location. */
  all_locations: z.boolean(),
  location_ids: z.array(z.string()),
});
export type MemberDto = z.input<typeof Member>;
export const MemberList = z.object({ items: z.array(Member) });

export const RoleSchema = z.enum(['owner', 'staff'], 'The role is owner or staff');

/** The locations a team member works at; null for every location of the business (and any added later). */
export const MemberLocationIds = z
  .array(z.string().max(100), 'The locations are a list of location ids, or null for all locations')
  .min(1, 'Choose at least one location, or all locations')
  .max(500)
  .nullable();

/** `PUT /business/members/{userId}/locations` (owners). */
export const MemberLocationsRequest = z.strictObject({ location_ids: MemberLocationIds });

/** `POST /business/members/invitations`: an email with a link to join the business. */
export const InviteRequest = z.strictObject({
  email: z
    .string()
    .trim()
    .max(320)
    .refine((v) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(v), 'Please enter a valid email address'),
  full_name: z.string().trim().max(200).nullish(),
  role: RoleSchema.default('staff'),
  /** For a team member: the locations they will work at (absent or null: all). Owners work at all of them. */
  location_ids: MemberLocationIds.optional(),
});

export const Invitation = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  role: RoleSchema,
  invited_by: z.string().nullable(),
  /** The locations the invited team member will work at; null for all. */
  location_names: z.array(z.string()).nullable(),
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
  /** The name the inviter typed for the person, for the form to start from. */
  full_name: z.string().nullable(),
  location_names: z.array(z.string()).nullable(),
  /** The address has a Switchboard account already: accepting takes its password, not a new one. */
  has_account: z.boolean(),
});

/** `POST /business/invitations/{secret}/accept` */
export const AcceptInvitationRequest = z.strictObject({
  full_name: z.string().trim().max(200).nullish(),
  password: z.string().min(1, 'Please enter a password').max(1024),
});
