import type { LocationInput as CreateLocationInput, LocationJson } from '@switchboard/shared';

/** A location as the location routes answer it. */
export type Location = LocationJson;

/** What the location form sends to `POST /business/locations` (and, as a patch, `PATCH …/{id}`). */
export type LocationInput = Pick<
  CreateLocationInput,
  | 'name'
  | 'address'
  | 'timezone'
  | 'phone_number'
  | 'email_address'
  | 'opening_hours'
  | 'holidays'
  | 'reply_time'
  | 'missed_call_text'
>;
