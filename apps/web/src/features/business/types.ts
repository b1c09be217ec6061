/** The business as the profile page edits it (a subset of what GET /user/me returns). */
export type BusinessProfile = {
  id: string;
  name: string;
  timezone: string;
  website: string | null;
  site_origins: string[];
  industry: string | null;
  image: string | null;
};

export type BusinessProfileInput = {
  name: string;
  timezone: string;
  website: string | null;
  site_origins: string[];
  industry: string | null;
};
