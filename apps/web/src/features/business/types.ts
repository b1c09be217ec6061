import type { MeBusiness, UpdateBusinessRequest } from '@switchboard/shared';

/** The business as the profile page edits it (a subset of what GET /user/me returns). */
export type BusinessProfile = Pick<
  MeBusiness,
  'id' | 'name' | 'timezone' | 'website' | 'site_origins' | 'industry' | 'image'
>;

type ProfileField = 'name' | 'timezone' | 'website' | 'site_origins' | 'industry';

/** What the profile form sends to `PUT /business/mybusiness`: every field it edits. */
export type BusinessProfileInput = { [K in ProfileField]-?: Exclude<UpdateBusinessRequest[K], undefined> };
