import {
  answer,
  CallingSetUpAnswer,
  CallListQuery,
  CallPage,
  CallTransferAnswer,
  CallTransferRequest,
  IdParams,
  PhoneSetupAnswer,
  PhoneSetupQuery,
  PresenceAnswer,
  PresenceListAnswer,
  PresenceQuery,
  PresenceRequest,
  SipAnswer,
  SipRequest,
  SipStatusAnswer,
  SipStatusQuery,
  VoiceTokenAnswer,
  VoiceTokenRequest,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireFeature } from '../admin/service.ts';
import { listCalls } from './history.ts';
import { availableAt, phoneSetup, setPresence, setUpCalling, voiceToken } from './setup.ts';
import { deskPhoneLogin, deskPhoneStatus } from './sip.ts';
import { transferCall } from './transfer.ts';

/** Calling: the owner sets it up on a Twilio account; staff browsers get their phone token and say when they are available. */
export const callRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('preHandler', async (request) => requireFeature(request.ctx, 'calls'));
  app.get(
    '/calls',
    { schema: { querystring: CallListQuery, response: { 200: answer(CallPage) } } },
    async (request) => ({ body: await listCalls(request.ctx, request.query) }),
  );
  app.post(
    '/calls/transfer',
    { schema: { body: CallTransferRequest, response: { 200: answer(CallTransferAnswer) } } },
    async (request) => ({ body: await transferCall(app, request.ctx, request.body) }),
  );
  app.get(
    '/calls/phone',
    { schema: { querystring: PhoneSetupQuery, response: { 200: answer(PhoneSetupAnswer) } } },
    async (request) => ({ body: await phoneSetup(request.ctx, request.query.location_id) }),
  );
  app.post(
    '/channels/:id/calling',
    { schema: { params: IdParams, response: { 200: answer(CallingSetUpAnswer) } } },
    async (request) => ({ body: await setUpCalling(request.ctx, request.params.id) }),
  );
  app.post(
    '/twilio/generate-voice-token',
    { schema: { body: VoiceTokenRequest, response: { 200: answer(VoiceTokenAnswer) } } },
    async (request) => ({ body: await voiceToken(request.ctx, request.body.identity) }),
  );
  app.post(
    '/user/sip',
    { schema: { body: SipRequest, response: { 200: answer(SipAnswer) } } },
    async (request) => ({ body: await deskPhoneLogin(request.ctx, request.body) }),
  );
  app.get(
    '/user/me/sip-status',
    { schema: { querystring: SipStatusQuery, response: { 200: answer(SipStatusAnswer) } } },
    async (request) => ({ body: await deskPhoneStatus(request.ctx, request.query.location_id) }),
  );
  app.put(
    '/calls/presence',
    { schema: { body: PresenceRequest, response: { 200: answer(PresenceAnswer) } } },
    async (request) => ({ body: await setPresence(request.ctx, request.body) }),
  );
  app.get(
    '/calls/presence',
    { schema: { querystring: PresenceQuery, response: { 200: answer(PresenceListAnswer) } } },
    async (request) => ({ body: await availableAt(request.ctx, request.query.location_id) }),
  );
};
