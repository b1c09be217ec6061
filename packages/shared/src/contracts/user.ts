/** A location as `GET /user/me` lists it. */
export type MeLocation = {
  id: string;
  name: string | null;
  address: string | null;
  precedence: number;
  phone_number: string | null;
  email_address: string | null;
  selected: boolean;
  assigned_count_open: number;
  assigned_count_closed: number;
  unassigned_count_open: number;
  unassigned_count_closed: number;
};

/** A business as `GET /user/me` lists it, with the user's role in it. */
export type MeBusiness = {
  id: string;
  name: string;
  owner_user_id: string | null;
  role: 'owner' | 'staff' | null;
  is_owner: boolean;
  image: string | null;
  timezone: string;
  website: string | null;
  /** Origins of the business's other sites, where its web forms may send visitors back to. */
  site_origins: string[];
  industry: string | null;
  plan: string;
  subscription: string;
  trial_end_date: string | null;
  subscription_past_due: boolean;
  next_invoice_attempt: string | null;
  messages_sent_today: number;
  message_limit: number;
  verified: boolean;
  regulated: boolean;
  selected: boolean;
  locations: MeLocation[];
};

/** `GET /user/me`: the signed-in user, every business they belong to and its locations, the selected ones flagged. */
export type UserMe = {
  id: string;
  email: string;
  full_name: string;
  avatar: string | null;
  super_admin: boolean;
  enable_notifications: boolean;
  enable_enquiry_notification: boolean;
  enable_message_notification: boolean;
  ringtone_enquiry: string | null;
  ringtone_message: string | null;
  businesses: MeBusiness[];
};
