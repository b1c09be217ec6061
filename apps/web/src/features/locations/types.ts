export type Location = {
  id: string;
  name: string | null;
  address: string | null;
  precedence: number;
  timezone: string | null;
  phone_number: string | null;
  email_address: string | null;
  assigned_count_open: number;
  assigned_count_closed: number;
  unassigned_count_open: number;
  unassigned_count_closed: number;
};

export type LocationInput = {
  name: string;
  address?: string | null;
  timezone?: string | null;
  phone_number?: string | null;
  email_address?: string | null;
};
