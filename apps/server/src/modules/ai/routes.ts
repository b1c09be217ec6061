import {
  AI_PROVIDERS,
  AiAutoReplyParams,
  AiAutoReplyRequest,
  AiDocument,
  AiDocumentList,
  AiDocumentPatch,
  AiDraftAnswer,
  AiFaq,
  AiFaqIds,
  AiFaqList,
  AiFaqPage,
  AiFaqPatch,
  AiFaqQuery,
  AiFaqRequest,
  AiFlow,
  AiFlowInput,
  AiFlowList,
  AiFlowPatch,
  AiLocationSetting,
  AiOnboardRequest,
  AiPlayAnswer,
  AiPlayEnquiryList,
  AiPlayMessagePage,
  AiPlayRequest,
  AiRating,
  AiRatingPage,
  AiRatingRequest,
  AiResponseRequest,
  AiRewriteRequest,
  AiStatus,
  AiTool,
  AiToolList,
  AiToolPatch,
  AiToolsRequest,
  AiToolTestRequest,
  AiToolTestResult,
  answer,
  EnquiryRowSchema,
  IdParams,
  PageQuery,
  TemplateDeleted,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireFeature } from '../admin/service.ts';
import { readParts } from '../uploads/multipart.ts';
import { setNeedsPerson, toggleAutoReply } from './auto-reply.ts';
import {
  crawlNow,
  DOCUMENT_MAX_BYTES,
  deleteDocument,
  documentTooLarge,
  listDocuments,
  updateDocument,
  uploadKnowledge,
} from './documents.ts';
import { createFaq, deleteFaq, faqsByIds, listFaqs, regenerateFaqs, updateFaq } from './faqs.ts';
import { createFlow, deleteFlow, generateFlows, listFlows, updateFlow } from './flows.ts';
import { listPlayConversations, listRatings, playMessage, playMessages, rateMessage } from './playground.ts';
import { aiStatus, onboard, setProvider } from './service.ts';
import { rewriteMessage, suggestReply } from './staff-help.ts';
import { createTools, deleteTool, listTools, testTool, updateTool } from './tools.ts';

const Regenerated = z.object({ proposed: z.number() });

/** Spec §7 "AI": the assistant's settings, knowledge, help for staff and the owner's playground. */
export const aiRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.addHook('preHandler', async (request) => requireFeature(request.ctx, 'assistant'));

  app.get('/business/ai', { schema: { response: { 200: answer(AiStatus) } } }, async (request) => ({
    body: await aiStatus(request.ctx, app.config),
  }));
  app.post(
    '/business/ai/onboard',
    { schema: { body: AiOnboardRequest, response: { 200: answer(AiStatus) } } },
    async (request) => {
      await onboard(request.ctx, request.body);
      return { body: await aiStatus(request.ctx, app.config) };
    },
  );
  app.put(
    '/business/ai/provider',
    {
      schema: {
        body: z.strictObject({ provider: z.enum(AI_PROVIDERS).nullable() }),
        response: { 200: answer(AiStatus) },
      },
    },
    async (request) => {
      await setProvider(request.ctx, request.body.provider);
      return { body: await aiStatus(request.ctx, app.config) };
    },
  );

  app.post(
    '/business/ai/upload',
    { schema: { response: { 200: answer(AiDocumentList) } } },
    async (request) => {
      const { files, fields } = await readParts(request, {
        maxBytes: DOCUMENT_MAX_BYTES,
        maxFiles: 10,
        tooLarge: documentTooLarge,
      });
      return {
        body: {
          items: await uploadKnowledge(request.ctx, { files, url: fields.url, recrawl: fields.recrawl }),
        },
      };
    },
  );
  app.get(
    '/business/ai/documents',
    { schema: { response: { 200: answer(AiDocumentList) } } },
    async (request) => ({
      body: await listDocuments(request.ctx),
    }),
  );
  app.put(
    '/business/ai/documents/:id',
    { schema: { params: IdParams, body: AiDocumentPatch, response: { 200: answer(AiDocument) } } },
    async (request) => ({ body: await updateDocument(request.ctx, request.params.id, request.body.recrawl) }),
  );
  app.post(
    '/business/ai/documents/:id/crawl',
    { schema: { params: IdParams, response: { 200: answer(AiDocument) } } },
    async (request) => ({ body: await crawlNow(request.ctx, request.params.id) }),
  );
  app.delete(
    '/business/ai/documents/:id',
    { schema: { params: IdParams, response: { 200: answer(TemplateDeleted) } } },
    async (request) => {
      await deleteDocument(request.ctx, request.params.id);
      return { body: { deleted: true as const } };
    },
  );

  app.get(
    '/business/ai/faqs',
    { schema: { querystring: AiFaqQuery, response: { 200: answer(AiFaqPage) } } },
    async (request) => ({ body: await listFaqs(request.ctx, request.query) }),
  );
  app.post(
    '/business/ai/faqs',
    { schema: { body: AiFaqRequest, response: { 200: answer(AiFaq) } } },
    async (request) => ({ body: await createFaq(request.ctx, request.body) }),
  );
  app.put(
    '/business/ai/faqs/:id',
    { schema: { params: IdParams, body: AiFaqPatch, response: { 200: answer(AiFaq) } } },
    async (request) => ({ body: await updateFaq(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/business/ai/faqs/:id',
    { schema: { params: IdParams, response: { 200: answer(TemplateDeleted) } } },
    async (request) => {
      await deleteFaq(request.ctx, request.params.id);
      return { body: { deleted: true as const } };
    },
  );
  app.post(
    '/business/ai/faqs/get-by-ids',
    { schema: { body: AiFaqIds, response: { 200: answer(AiFaqList) } } },
    async (request) => ({ body: { items: await faqsByIds(request.ctx, request.body.ids) } }),
  );
  app.post(
    '/business/ai/faq-regenerate',
    { schema: { response: { 200: answer(Regenerated) } } },
    async (request) => ({ body: await regenerateFaqs(request.ctx) }),
  );

  app.get('/business/ai/tools', { schema: { response: { 200: answer(AiToolList) } } }, async (request) => ({
    body: { items: await listTools(request.ctx) },
  }));
  app.post(
    '/business/ai/tools',
    { schema: { body: AiToolsRequest, response: { 200: answer(AiToolList) } } },
    async (request) => ({ body: { items: await createTools(request.ctx, request.body.tools) } }),
  );
  app.put(
    '/business/ai/tools/:id',
    { schema: { params: IdParams, body: AiToolPatch, response: { 200: answer(AiTool) } } },
    async (request) => ({ body: await updateTool(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/business/ai/tools/:id',
    { schema: { params: IdParams, response: { 200: answer(TemplateDeleted) } } },
    async (request) => {
      await deleteTool(request.ctx, request.params.id);
      return { body: { deleted: true as const } };
    },
  );
  app.post(
    '/business/ai/tools/:id/test',
    { schema: { params: IdParams, body: AiToolTestRequest, response: { 200: answer(AiToolTestResult) } } },
    async (request) => ({ body: await testTool(request.ctx, request.params.id, request.body.arguments) }),
  );

  app.get('/business/ai-flows', { schema: { response: { 200: answer(AiFlowList) } } }, async (request) => ({
    body: { items: await listFlows(request.ctx) },
  }));
  app.post(
    '/business/ai-flows',
    { schema: { body: AiFlowInput, response: { 200: answer(AiFlow) } } },
    async (request) => ({ body: await createFlow(request.ctx, request.body) }),
  );
  app.put(
    '/business/ai-flows/:id',
    { schema: { params: IdParams, body: AiFlowPatch, response: { 200: answer(AiFlow) } } },
    async (request) => ({ body: await updateFlow(request.ctx, request.params.id, request.body) }),
  );
  app.delete(
    '/business/ai-flows/:id',
    { schema: { params: IdParams, response: { 200: answer(TemplateDeleted) } } },
    async (request) => {
      await deleteFlow(request.ctx, request.params.id);
      return { body: { deleted: true as const } };
    },
  );
  app.post(
    '/business/ai/flows/auto-generate',
    { schema: { response: { 200: answer(AiFlowList) } } },
    async (request) => ({ body: { items: await generateFlows(request.ctx) } }),
  );

  app.put(
    '/business/ai-auto-reply/toggle/:action',
    {
      schema: {
        params: AiAutoReplyParams,
        body: AiAutoReplyRequest,
        response: { 200: answer(AiLocationSetting) },
      },
    },
    async (request) => ({ body: await toggleAutoReply(request.ctx, request.params.action, request.body) }),
  );
  app.put(
    '/enquiries/:id/needs-person',
    {
      schema: {
        params: IdParams,
        body: z.strictObject({ needs_person: z.boolean() }),
        response: { 200: answer(EnquiryRowSchema) },
      },
    },
    async (request) => ({
      body: await setNeedsPerson(request.ctx, request.params.id, request.body.needs_person),
    }),
  );

  app.post(
    '/business/ai/response',
    { schema: { body: AiResponseRequest, response: { 200: answer(AiDraftAnswer) } } },
    async (request) => ({ body: await suggestReply(request.ctx, request.body) }),
  );
  app.post(
    '/business/ai/rewrite-message',
    { schema: { body: AiRewriteRequest, response: { 200: answer(AiDraftAnswer) } } },
    async (request) => ({ body: await rewriteMessage(request.ctx, request.body) }),
  );

  app.post(
    '/business/ai/messages/:id/rating',
    { schema: { params: IdParams, body: AiRatingRequest, response: { 200: answer(AiRating) } } },
    async (request) => ({ body: await rateMessage(request.ctx, request.params.id, request.body) }),
  );
  app.get(
    '/business/ai/ratings',
    { schema: { querystring: PageQuery, response: { 200: answer(AiRatingPage) } } },
    async (request) => ({ body: await listRatings(request.ctx, request.query) }),
  );

  app.get(
    '/business/ai/enquiries',
    { schema: { response: { 200: answer(AiPlayEnquiryList) } } },
    async (request) => ({
      body: await listPlayConversations(request.ctx),
    }),
  );
  app.get(
    '/business/ai/enquiries/:id/messages',
    { schema: { params: IdParams, querystring: PageQuery, response: { 200: answer(AiPlayMessagePage) } } },
    async (request) => ({ body: await playMessages(request.ctx, request.params.id, request.query) }),
  );
  app.post(
    '/business/ai/messages',
    { schema: { body: AiPlayRequest, response: { 200: answer(AiPlayAnswer) } } },
    async (request) => ({ body: await playMessage(request.ctx, null, request.body) }),
  );
  app.post(
    '/business/ai/messages/:id',
    { schema: { params: IdParams, body: AiPlayRequest, response: { 200: answer(AiPlayAnswer) } } },
    async (request) => ({ body: await playMessage(request.ctx, request.params.id, request.body) }),
  );
};
