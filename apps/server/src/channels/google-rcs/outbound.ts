import { createPrivateKey } from 'node:crypto';
import type { Attachment } from '@switchboard/shared';
import { SignJWT } from 'jose';
import { PermanentSendError, TransientSendError } from '../../lib/provider-errors.ts';
import { isTransientStatus, jsonOf, providerFetch } from '../../lib/provider-http.ts';
import type { ChannelAdapter } from '../types.ts';

const SCOPE = 'https://www.googleapis.com/auth/rcsbusinessmessaging';

type ServiceAccount = { client_email: string; private_key: string; private_key_id?: string };

const tokens = new Map<string, { token: string; expires: number }>();

const tokenCacheKey = (sa: ServiceAccount, tokenUrl: string) =>
  `${tokenUrl}|${sa.client_email}|${sa.private_key_id ?? ''}`;

/** An OAuth access token for the service account (JWT bearer grant), cached until a minute before expiry. */
export async function serviceAccountToken(
  serviceAccountJson: string,
  tokenUrl: string,
  timeoutMs: number,
): Promise<string> {
  const sa = JSON.parse(serviceAccountJson) as ServiceAccount;
  const cacheKey = tokenCacheKey(sa, tokenUrl);
  const cached = tokens.get(cacheKey);
  if (cached && cached.expires > Date.now() + 60_000) return cached.token;
  let assertion: string;
  try {
    const now = Math.floor(Date.now() / 1000);
    assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(sa.private_key_id ? { kid: sa.private_key_id } : {}),
      })
      .setIssuer(sa.client_email)
      .setSubject(sa.client_email)
      .setAudience(tokenUrl)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(createPrivateKey(sa.private_key));
  } catch {
    throw new PermanentSendError("The Google service account key can't be used. Paste the key file again.");
  }
  const res = await providerFetch('Google', tokenUrl, {
    method: 'POST',
    timeoutMs,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion,
    }).toString(),
  });
  const json = (await jsonOf(res)) as {
    access_token?: string;
    expires_in?: number;
    error_description?: string;
  };
  if (!res.ok || !json?.access_token) {
    if (isTransientStatus(res.status)) throw new TransientSendError(`Google sign-in answered ${res.status}.`);
    throw new PermanentSendError(
      `Google refused the service account (${json?.error_description ?? res.status}). Check the key in channel settings.`,
    );
  }
  tokens.set(cacheKey, { token: json.access_token, expires: Date.now() + (json.expires_in ?? 3600) * 1000 });
  return json.access_token;
}

type GoogleError = { error?: { code?: number; message?: string; status?: string } };

function rbmFailure(status: number, body: GoogleError | undefined): Error {
  const reason = body?.error?.message ?? `RBM answered ${status}.`;
  if (isTransientStatus(status)) return new TransientSendError(`Google RCS error ${status}: ${reason}`);
  switch (status) {
    case 404:
      return new PermanentSendError(
        "This phone can't receive RCS messages (the customer's device or carrier doesn't support RCS).",
        'NOT_FOUND',
      );
    case 401:
    case 403:
      return new PermanentSendError(
        'Google refused the RCS agent credentials. Check the agent ID and service account in channel settings.',
        body?.error?.status,
      );
    default:
      return new PermanentSendError(`Google RCS error ${status}: ${reason}`, body?.error?.status);
  }
}

/**
 * RCS Business Messaging agent messages. Each message is created with our own message id as `messageId`,
 * so a retry after a lost answer is recognised by RBM (409 ALREADY_EXISTS) instead of sent twice.
 */
export function createRbmAdapter(deps: {
  base: string;
  tokenUrl: string;
  timeoutMs: number;
  agent_id: string;
  service_account_json: string;
  mediaUrl(attachment: Attachment): string;
}): ChannelAdapter {
  return {
    provider: 'google_rcs',
    async send(message) {
      const phone = message.to.phone;
      if (!phone) throw new PermanentSendError('The customer has no phone number for RCS.');
      const parts: { id: string; content: unknown }[] = [];
      if (message.message || message.attachments.length === 0) {
        parts.push({ id: message.id, content: { contentMessage: { text: message.message } } });
      }
      message.attachments.forEach((a, i) => {
        parts.push({
          id: parts.length === 0 ? message.id : `${message.id}-${i + 1}`,
          content: { contentMessage: { contentInfo: { fileUrl: deps.mediaUrl(a), forceRefresh: false } } },
        });
      });
      const token = await serviceAccountToken(deps.service_account_json, deps.tokenUrl, deps.timeoutMs);
      for (const part of parts) {
        const query = new URLSearchParams({ messageId: part.id, agentId: deps.agent_id });
        const url = `${deps.base}/v1/phones/${encodeURIComponent(phone)}/agentMessages?${query}`;
        const res = await providerFetch('Google RCS', url, {
          method: 'POST',
          timeoutMs: deps.timeoutMs,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(part.content),
        });
        if (res.ok || res.status === 409) {
          await res.body?.cancel();
          continue;
        }
        if (res.status === 401) {
          // The cached token was revoked or expired early: the retry signs in afresh.
          tokens.delete(
            tokenCacheKey(JSON.parse(deps.service_account_json) as ServiceAccount, deps.tokenUrl),
          );
          await res.body?.cancel();
          throw new TransientSendError('Google RCS refused the access token; signing in again.');
        }
        throw rbmFailure(res.status, (await jsonOf(res)) as GoogleError | undefined);
      }
      return { provider: 'google_rcs', provider_message_id: message.id };
    },
  };
}
