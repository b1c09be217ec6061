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

export type MeBusiness = {
  id: string;
  name: string;
  owner_user_id: string | null;
  role: 'owner' | 'staff' | null;
  is_owner: boolean;
  image: string | null;
  timezone: string;
  website: string | null;
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

export type Me = {
  id: string;
  email: string;
  full_name: string | null;
  avatar: string | null;
  super_admin: boolean;
  enable_notifications: boolean;
  enable_enquiry_notification: boolean;
  enable_message_notification: boolean;
  ringtone_enquiry: string | null;
  ringtone_message: string | null;
  businesses: MeBusiness[];
  /** Added after load from GET /business/mybusiness/features; empty when that call fails. */
  feature_flags: Record<string, unknown>;
};

export type LoginResult = { token: string; key: string; iv: string };
