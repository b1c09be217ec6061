import {
  answer,
  IdParams,
  MentionListSchema,
  MentionsReadSchema,
  NoteListSchema,
  NoteRequest,
  NoteSchema,
} from '@switchboard/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listMentions, markMentionsRead } from './mentions.ts';
import { addNote, listNotes } from './service.ts';

/** Private notes in a thread: staff only, never sent to the customer. */
export const noteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/enquiries/:id/notes',
    { schema: { params: IdParams, response: { 200: answer(NoteListSchema) } } },
    async (request) => ({ body: { items: await listNotes(request.ctx, request.params.id) } }),
  );
  app.post(
    '/enquiries/:id/notes',
    { schema: { params: IdParams, body: NoteRequest, response: { 200: answer(NoteSchema) } } },
    async (request) => ({ body: await addNote(request.ctx, request.params.id, request.body) }),
  );
  // The person's mentions: a lasting list, beside the toast that tells them at the time.
  app.get('/mentions', { schema: { response: { 200: answer(MentionListSchema) } } }, async (request) => ({
    body: await listMentions(request.ctx),
  }));
  app.put(
    '/enquiries/:id/mentions/read',
    { schema: { params: IdParams, response: { 200: answer(MentionsReadSchema) } } },
    async (request) => ({ body: await markMentionsRead(request.ctx, request.params.id) }),
  );
};
