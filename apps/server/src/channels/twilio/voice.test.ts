import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureBytes, fixtureJson, type TwilioEnvelope } from '../../modules/channels/test-support.ts';
import { parseForm, verifyTwilioSignature } from './signature.ts';
import {
  advanceCallStatus,
  dialNumberTwiml,
  parseVoiceIdentity,
  ringTwiml,
  voiceAccessToken,
  voiceIdentity,
  voicemailTwiml,
} from './voice.ts';

const PUBLIC = 'https://app.example.com';
const xml = (name: string) => fixtureBytes(`twilio-voice/${name}`).toString('utf8').trim();

describe('Twilio Voice on the wire', () => {
  afterEach(() => vi.useRealTimers());

  it('mints the Voice SDK access token exactly as Twilio documents it', () => {
    const fixture = fixtureJson<{
      jwt: string;
      signing: { apiKeySid: string; apiKeySecret: string };
      payload: {
        iat: number;
        sub: string;
        grants: { identity: string; voice: { outgoing: { application_sid: string } } };
      };
    }>('twilio-voice/voice-access-token.json');
    vi.useFakeTimers({ now: fixture.payload.iat * 1000 });
    const token = voiceAccessToken({
      accountSid: fixture.payload.sub,
      apiKeySid: fixture.signing.apiKeySid,
      apiKeySecret: fixture.signing.apiKeySecret,
      twimlAppSid: fixture.payload.grants.voice.outgoing.application_sid,
      identity: fixture.payload.grants.identity,
    });
    expect(token).toBe(fixture.jwt);
  });

  it('rings browser clients with the documented Dial, status callbacks and dual-channel recording', () => {
    expect(
      ringTwiml({
        publicUrl: PUBLIC,
        clients: [
          { identity: 'agent_jane', parameters: { conversationId: 'conv_0001', callerName: 'Sam Citizen' } },
        ],
      }),
    ).toBe(xml('twiml-dial-client.xml'));
  });

  it('rings desk phones alongside the browsers', () => {
    const twiml = ringTwiml({
      publicUrl: PUBLIC,
      clients: [{ identity: 'agent_jane' }],
      sip: ['sip:jane@harbourside.sip.twilio.com'],
    });
    expect(twiml).toContain('<Identity>agent_jane</Identity></Client><Sip ');
    expect(twiml).toContain('>sip:jane@harbourside.sip.twilio.com</Sip></Dial>');
  });

  it("dials a customer from the browser with the location's number as caller id", () => {
    expect(dialNumberTwiml({ publicUrl: PUBLIC, callerId: '+61491570110', number: '+61491570156' })).toBe(
      xml('twiml-dial-number.xml'),
    );
  });

  it('sends an unanswered caller to voicemail, with the greeting spoken and escaped', () => {
    const twiml = voicemailTwiml({
      publicUrl: PUBLIC,
      greeting: 'Sorry <we> missed you & please leave a message.',
    });
    expect(twiml).toContain('<Say>Sorry &lt;we&gt; missed you &amp; please leave a message.</Say>');
    expect(twiml).toContain(`recordingStatusCallback="${PUBLIC}/webhooks/twilio/voice/recording-status"`);
    expect(twiml).toMatch(/<Record [^>]*maxLength="180"/);
  });

  it.each([['incoming-call.json'], ['twiml-app-outgoing-sdk-call.json'], ['call-status-completed.json']])(
    'accepts the signature of %s and refuses it once a parameter changes',
    (file) => {
      const fixture = fixtureJson<TwilioEnvelope>(`twilio-voice/${file}`);
      const check = (body: string) =>
        verifyTwilioSignature({
          authToken: fixture.signing.authToken,
          signature: fixture.request.headers['X-Twilio-Signature']!,
          url: fixture.request.url,
          params: parseForm(body),
        });
      expect(check(fixture.request.body)).toBe(true);
      // Empty parameters are signed too: dropping one breaks the signature.
      expect(check(fixture.request.body.replace('&CalledCity=', ''))).toBe(
        file === 'twiml-app-outgoing-sdk-call.json',
      );
      expect(check(fixture.request.body.replace('%2B61491570', '%2B61491571'))).toBe(false);
    },
  );

  it("binds a browser's identity to one user at one location", () => {
    const user = '0195b3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
    const location = '0195b3c4-0000-7000-8000-000000000001';
    const identity = voiceIdentity(user, location);
    expect(identity).toMatch(/^[A-Za-z0-9_]{1,121}$/);
    expect(parseVoiceIdentity(`client:${identity}`)).toEqual({ user_id: user, location_id: location });
    expect(parseVoiceIdentity('client:agent_jane')).toBeNull();
    expect(parseVoiceIdentity(undefined)).toBeNull();
  });

  it('moves a call forward only, whatever order its callbacks arrive in', () => {
    expect(advanceCallStatus(null, 'ringing')).toBe('ringing');
    expect(advanceCallStatus('ringing', 'in-progress')).toBe('in-progress');
    expect(advanceCallStatus('in-progress', 'ringing')).toBe('in-progress');
    expect(advanceCallStatus('in-progress', 'completed')).toBe('completed');
    expect(advanceCallStatus('completed', 'in-progress')).toBe('completed');
    // The first outcome stays.
    expect(advanceCallStatus('no-answer', 'completed')).toBe('no-answer');
    expect(advanceCallStatus('initiated', 'busy')).toBe('busy');
  });
});
