import { sendTwilioMessage } from '../../channels/twilio/api.ts';
import type { Config } from '../../config.ts';

/**
 * Texts from Switchboard itself (sign-up codes), not from a business: through the operator's Twilio account
 * and number (`VERIFY_SMS_*`). In sandbox mode without one, nothing leaves the server: the text is handed back
 * so the sandbox can show it on screen, as it shows everything else a real provider would have delivered.
 */
export type VerificationSms =
  | { mode: 'twilio'; send(to: string, body: string): Promise<void> }
  | { mode: 'sandbox'; send(to: string, body: string): Promise<void> }
  | { mode: 'none' };

export function verificationSmsFor(config: Config): VerificationSms {
  const { accountSid, authToken, from } = config.verifySms;
  if (accountSid && authToken && from) {
    const creds = {
      base: config.providers.twilioApiBase,
      timeoutMs: config.providers.timeoutMs,
      account_sid: accountSid,
      auth_token: authToken,
    };
    return {
      mode: 'twilio',
      async send(to, body) {
        await sendTwilioMessage(creds, { to, from, body, media_urls: [] });
      },
    };
  }
  if (config.sandbox) return { mode: 'sandbox', async send() {} };
  return { mode: 'none' };
}
