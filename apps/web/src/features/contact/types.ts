export type ContactSubmission = {
  name?: string;
  email?: string;
  phone?: string;
  message: string;
  location_id?: string;
  /** The honeypot: people never see it, so a filled one marks a bot. */
  _gotcha?: string;
};
