import { aiTools, type DbOrTx } from '@switchboard/db';
import {
  type AiToolInput,
  type AiToolTestResult,
  clipText,
  isUuid,
  AiToolParameters as ParametersSchema,
} from '@switchboard/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, fieldError } from '../../errors.ts';
import { decryptJson, encryptJson, maskSecret } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BlockedUrlError, FetchLimitError, guardedFetch } from '../../lib/guarded-fetch.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import type { RunnableTool } from './assistant.ts';

/** What a tool may send back, and how long it may take. */
export const TOOL_MAX_BYTES = 256 * 1024;
export const TOOL_TIMEOUT_MS = 10_000;
/** How much of a tool's answer the assistant (and the test button) is shown. */
export const TOOL_RESULT_CHARS = 4000;

type ToolRow = typeof aiTools.$inferSelect;
type ToolCtx = Pick<Context, 'db' | 'actor' | 'config'>;

const toolNotFound = () => new AppError('not_found', 'Tool not found.');
const sealContext = (id: string) => `ai_tool:${id}`;

function headersOf(config: Pick<Config, 'encryptionKey'>, row: ToolRow): Record<string, string> {
  return row.headers_encrypted
    ? decryptJson(config.encryptionKey, row.headers_encrypted, sealContext(row.id))
    : {};
}

function toDto(config: Pick<Config, 'encryptionKey'>, row: ToolRow) {
  const headers = headersOf(config, row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    method: row.method,
    url_template: row.url_template,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, maskSecret(v) ?? ''])),
    body_template: row.body_template,
    parameters: ParametersSchema.parse(row.parameters),
    updated_at: row.updated_at,
  };
}

/** The placeholders of a template (`{name}`) must all be parameters; the URL must be http(s). */
function checkTool(input: Pick<AiToolInput, 'url_template' | 'body_template' | 'parameters' | 'name'>) {
  const params = new Set(Object.keys(input.parameters?.properties ?? {}));
  for (const r of input.parameters?.required ?? []) {
    if (!params.has(r))
      throw new AppError('unprocessable', `“${r}” is required but is not a parameter of ${input.name}.`);
  }
  const templates = { url_template: input.url_template, body_template: input.body_template ?? '' };
  for (const [field, template] of Object.entries(templates)) {
    for (const [, name] of template.matchAll(/\{([a-z][a-z0-9_]*)\}/g)) {
      if (!params.has(name ?? '')) {
        throw fieldError('unprocessable', field, `{${name}} in ${input.name} is not one of its parameters.`);
      }
    }
  }
  let url: URL;
  try {
    url = new URL(input.url_template.replace(/\{[a-z][a-z0-9_]*\}/g, 'x'));
  } catch {
    throw new AppError('unprocessable', `The address of ${input.name} is not a web address (https://…).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('unprocessable', `The address of ${input.name} must start with https://.`);
  }
}

export async function listTools({ db, actor, config }: ToolCtx) {
  const { business_id } = requireBusiness(actor);
  const rows = await db
    .select()
    .from(aiTools)
    .where(eq(aiTools.business_id, business_id))
    .orderBy(asc(aiTools.name));
  return rows.map((r) => toDto(config, r));
}

/** `POST /business/ai/tools` {tools}: adds each; a name already used is refused (409) and nothing is added. */
export async function createTools({ db, actor, config }: ToolCtx, tools: AiToolInput[]) {
  const { business_id } = requireOwner(actor, "change the assistant's tools");
  for (const t of tools) checkTool(t);
  try {
    return await db.transaction(async (tx) => {
      const out = [];
      for (const t of tools) {
        const [row] = await tx
          .insert(aiTools)
          .values({
            business_id,
            name: t.name,
            description: t.description,
            method: t.method ?? 'GET',
            url_template: t.url_template,
            body_template: t.body_template ?? null,
            parameters: t.parameters ?? { type: 'object', properties: {}, required: [] },
          })
          .returning();
        const headers = t.headers ?? {};
        const [sealed] = await tx
          .update(aiTools)
          .set({
            headers_encrypted: Object.keys(headers).length
              ? encryptJson(config.encryptionKey, headers, sealContext(row!.id))
              : null,
          })
          .where(eq(aiTools.id, row!.id))
          .returning();
        out.push(toDto(config, sealed!));
      }
      return out;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'There is already a tool with that name.');
    throw error;
  }
}

async function ownTool(db: DbOrTx, businessId: string, id: string) {
  if (!isUuid(id)) throw toolNotFound();
  const [row] = await db
    .select()
    .from(aiTools)
    .where(and(eq(aiTools.id, id), eq(aiTools.business_id, businessId)));
  if (!row) throw toolNotFound();
  return row;
}

export async function updateTool(
  { db, actor, config }: ToolCtx,
  id: string,
  patch: Partial<Omit<AiToolInput, 'headers'>> & { headers?: Record<string, string | null> | undefined },
) {
  const { business_id } = requireOwner(actor, "change the assistant's tools");
  const row = await ownTool(db, business_id, id);
  const next = {
    name: patch.name ?? row.name,
    description: patch.description ?? row.description,
    method: patch.method ?? row.method,
    url_template: patch.url_template ?? row.url_template,
    body_template: patch.body_template === undefined ? row.body_template : patch.body_template,
    parameters: patch.parameters ?? ParametersSchema.parse(row.parameters),
  };
  checkTool(next);
  const headers = { ...headersOf(config, row) };
  for (const [k, v] of Object.entries(patch.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  try {
    const [updated] = await db
      .update(aiTools)
      .set({
        ...next,
        headers_encrypted: Object.keys(headers).length
          ? encryptJson(config.encryptionKey, headers, sealContext(row.id))
          : null,
      })
      .where(eq(aiTools.id, row.id))
      .returning();
    return toDto(config, updated!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict', 'There is already a tool with that name.');
    throw error;
  }
}

export async function deleteTool({ db, actor }: ToolCtx, id: string) {
  const { business_id } = requireOwner(actor, "change the assistant's tools");
  const row = await ownTool(db, business_id, id);
  await db.delete(aiTools).where(eq(aiTools.id, row.id));
}

const fill = (template: string, args: Record<string, unknown>, encode: (v: string) => string) =>
  template.replace(/\{([a-z][a-z0-9_]*)\}/g, (_m, name: string) =>
    encode(args[name] === undefined ? '' : String(args[name])),
  );

/**
 * Calls a tool: its URL and body filled with the arguments (URL parts encoded, body values JSON-escaped), its
 * headers added, through the guarded fetch (public addresses only, size and time capped). Answers the start of
 * what came back; a failure is said in words, so the assistant (or the test) can tell the person.
 */
export async function callTool(
  config: Pick<Config, 'encryptionKey' | 'ai'>,
  row: ToolRow,
  args: Record<string, unknown>,
): Promise<AiToolTestResult> {
  const started = Date.now();
  const params = ParametersSchema.parse(row.parameters);
  const missing = params.required.filter((r) => args[r] === undefined || args[r] === '');
  if (missing.length) return { ok: false, status: null, body: `Missing ${missing.join(', ')}.`, ms: 0 };
  const url = fill(row.url_template, args, encodeURIComponent);
  const body = row.body_template
    ? fill(row.body_template, args, (v) => JSON.stringify(v).slice(1, -1))
    : undefined;
  try {
    const res = await guardedFetch(url, {
      method: row.method,
      headers: {
        accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...headersOf(config, row),
      },
      ...(body !== undefined ? { body } : {}),
      maxBytes: TOOL_MAX_BYTES,
      timeoutMs: TOOL_TIMEOUT_MS,
      maxRedirects: 2,
      trustedOrigins: config.ai.fetchTrustedOrigins ?? [],
    });
    const text = clipText(res.bytes.toString('utf8'), TOOL_RESULT_CHARS);
    return {
      ok: res.status >= 200 && res.status < 300,
      status: res.status,
      body: text,
      ms: Date.now() - started,
    };
  } catch (error) {
    const reason =
      error instanceof BlockedUrlError
        ? `That address cannot be called: ${error.message}.`
        : error instanceof FetchLimitError
          ? `The answer was too large or too slow: ${error.message}.`
          : `The call failed: ${error instanceof Error ? error.message : 'no answer'}.`;
    return { ok: false, status: null, body: reason, ms: Date.now() - started };
  }
}

/** `POST /business/ai/tools/{id}/test`: the owner tries a tool with arguments they give. */
export async function testTool(ctx: ToolCtx, id: string, args: Record<string, unknown>) {
  const { business_id } = requireOwner(ctx.actor, "try the assistant's tools");
  const row = await ownTool(ctx.db, business_id, id);
  return callTool(ctx.config, row, args);
}

/** The business's tools, ready for the assistant to call. */
export async function runnableTools(
  db: DbOrTx,
  config: Pick<Config, 'encryptionKey' | 'ai'>,
  businessId: string,
  only?: string[],
): Promise<RunnableTool[]> {
  const rows = await db.select().from(aiTools).where(eq(aiTools.business_id, businessId));
  return rows
    .filter((r) => !only || only.includes(r.id))
    .map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      parameters: ParametersSchema.parse(r.parameters),
      run: async (args) => {
        const result = await callTool(config, r, args);
        return result.ok
          ? result.body
          : `The tool did not work: ${result.status ? `status ${result.status}, ` : ''}${result.body}`;
      },
    }));
}
