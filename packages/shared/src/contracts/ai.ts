import { z } from 'zod';
import { pageOf, Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';

/** What the assistant decided to do with a customer's message. */
export const AI_ACTIONS = ['answer', 'handoff', 'ask'] as const;
export type AiAction = (typeof AI_ACTIONS)[number];

/**
 * The assistant's reply as a model must give it (structured output), and as the built-in assistant gives it:
 * never a marker hidden in the text. `faq_ids` are the FAQs the message came from; `confidence` 0–1.
 */
export const AiReply = z.object({
  action: z.enum(AI_ACTIONS),
  message: z.string(),
  faq_ids: z.array(z.string()),
  confidence: z.number().min(0).max(1),
});
export type AiReply = z.infer<typeof AiReply>;

/** Where an answer came from, as a person is shown it: an FAQ or a part of an uploaded document. */
export const AiSource = z.object({
  kind: z.enum(['faq', 'section', 'flow']),
  id: z.string(),
  title: z.string(),
});
export type AiSource = z.infer<typeof AiSource>;

/** What is kept with every assistant reply (`messages.meta.ai`, playground messages): the reply and its sources. */
export const AiReplyMeta = AiReply.extend({
  sources: z.array(AiSource),
  provider: z.enum(['builtin', 'model']),
  /** The flow whose step produced the reply, when one did. */
  flow_id: z.string().nullable().optional(),
});
export type AiReplyMeta = z.infer<typeof AiReplyMeta>;

export const AI_TONES = ['friendly', 'professional', 'casual'] as const;
export const AI_PROVIDERS = ['builtin', 'model'] as const;
export type AiProviderKind = (typeof AI_PROVIDERS)[number];

export const AI_FAQ_MAX_QUESTION = 500;
export const AI_FAQ_MAX_ANSWER = 4000;
export const AI_FAQ_MAX_PHRASINGS = 20;

const Question = z.string().trim().min(1, 'Write the question.').max(AI_FAQ_MAX_QUESTION);
const Answer = z.string().trim().min(1, 'Write the answer.').max(AI_FAQ_MAX_ANSWER);
const Phrasings = z.array(z.string().trim().min(1).max(AI_FAQ_MAX_QUESTION)).max(AI_FAQ_MAX_PHRASINGS);

/** `POST /business/ai/faqs`: location_ids missing or null means every location. */
export const AiFaqRequest = z.strictObject({
  question: Question,
  answer: Answer,
  phrasings: Phrasings.default([]),
  location_ids: z.array(Uuid).max(200).nullable().optional(),
});
export type AiFaqRequest = z.input<typeof AiFaqRequest>;

/** `PUT /business/ai/faqs/{id}`: any of the fields; `status: 'active'` accepts a proposed FAQ. */
export const AiFaqPatch = z
  .strictObject({
    question: Question.optional(),
    answer: Answer.optional(),
    phrasings: Phrasings.optional(),
    location_ids: z.array(Uuid).max(200).nullable().optional(),
    status: z.literal('active').optional(),
  })
  .refine(
    (v) => Object.keys(v).length > 0,
    'Nothing to change: send question, answer, phrasings or location_ids.',
  );
export type AiFaqPatch = z.input<typeof AiFaqPatch>;

export const AiFaq = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  phrasings: z.array(z.string()),
  location_ids: z.array(z.string()).nullable(),
  /** The names of `location_ids`' locations (every location's when it is null). */
  location_names: z.array(z.string()),
  all_locations: z.boolean(),
  status: z.enum(['active', 'proposed']),
  origin: z.enum(['manual', 'document', 'handoff', 'onboarding']),
  document_id: z.string().nullable(),
  /** A proposal of a further phrasing for this FAQ (its question is the phrasing). */
  target_faq_id: z.string().nullable(),
  source_enquiry_id: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type AiFaq = z.input<typeof AiFaq>;
export const AiFaqPage = pageOf(AiFaq);

/** `GET /business/ai/faqs`: `status` proposed lists suggestions waiting for the owner; `q` searches. */
export const AiFaqQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  status: z.enum(['active', 'proposed']).default('active'),
  q: z.string().trim().max(200).optional(),
});

export const AiFaqIds = z.strictObject({ ids: z.array(Uuid).min(1).max(100) });
export const AiFaqList = z.object({ items: z.array(AiFaq) });

/** `POST /business/ai/onboard`: what the owner tells the assistant about the business. */
export const AiOnboardRequest = z.strictObject({
  description: z.string().trim().min(1, 'Say what the business does.').max(4000),
  services: z.string().trim().max(4000).default(''),
  hours: z.string().trim().max(2000).default(''),
  tone: z.enum(AI_TONES).default('friendly'),
  handoff_message: z.string().trim().min(1).max(1000).nullable().optional(),
  /** Where the FAQs made from these answers apply; missing: every location. */
  location_ids: z.array(Uuid).max(200).nullable().optional(),
});
export type AiOnboardRequest = z.input<typeof AiOnboardRequest>;

/** The options of a location's auto-reply; every one has a default. */
export const AiAutoReplyOptions = z.strictObject({
  /** Reply only when the location is closed (its opening hours). */
  outside_hours_only: z.boolean().default(false),
  /** Wait this long after the customer's last line, so quick follow-ups are answered together. */
  delay_seconds: z.number().int().min(0).max(600).default(5),
  /** Stop after this many assistant replies in one conversation (then a person takes over). */
  max_replies: z.number().int().min(1).max(50).default(5),
  /** Stop in a conversation as soon as a person replies in it. */
  pause_on_human_reply: z.boolean().default(true),
});
export type AiAutoReplyOptions = z.infer<typeof AiAutoReplyOptions>;

export const AI_AUTO_REPLY_ACTIONS = ['off', 'suggest', 'auto'] as const;
export type AiAutoReplyAction = (typeof AI_AUTO_REPLY_ACTIONS)[number];

/** `PUT /business/ai-auto-reply/toggle/{action}` */
export const AiAutoReplyParams = z.strictObject({ action: z.enum(AI_AUTO_REPLY_ACTIONS) });
export const AiAutoReplyRequest = z.strictObject({
  location_id: Uuid,
  options: AiAutoReplyOptions.partial().optional(),
});

export const AiLocationSetting = z.object({
  location_id: z.string(),
  name: z.string().nullable(),
  action: z.enum(AI_AUTO_REPLY_ACTIONS),
  options: AiAutoReplyOptions,
});
export type AiLocationSetting = z.input<typeof AiLocationSetting>;

export const AiProfile = z.object({
  description: z.string(),
  services: z.string(),
  hours: z.string(),
  tone: z.enum(AI_TONES),
  handoff_message: z.string(),
  onboarding_completed: z.boolean(),
});
export type AiProfile = z.input<typeof AiProfile>;

/** `GET /business/ai`: the profile, which provider answers, what it knows, and each location's auto-reply. */
export const AiStatus = z.object({
  profile: AiProfile,
  provider: z.object({ kind: z.enum(AI_PROVIDERS), model: z.string().nullable(), embeddings: z.boolean() }),
  faq_count: z.number(),
  proposed_count: z.number(),
  document_count: z.number(),
  locations: z.array(AiLocationSetting),
});
export type AiStatus = z.input<typeof AiStatus>;

/** `POST /business/ai/response`: a reply to the enquiry's last customer message, kept as the user's draft. */
export const AiResponseRequest = z.strictObject({
  enquiry_id: Uuid,
  message: z.string().max(10_000).optional(),
});
/** `POST /business/ai/rewrite-message`: the user's text made ready to send, kept as their draft. */
export const AiRewriteRequest = z.strictObject({
  enquiry_id: Uuid,
  message: z.string().trim().min(1, 'Write something to rewrite.').max(10_000),
});

/** What the helping-staff routes answer: `message` is the text ('' when there was nothing to reply to). */
export const AiDraftAnswer = z.object({
  message: z.string(),
  ai_interaction: z.enum(['ai_generated', 'ai_rewritten']).nullable(),
  ai_original: z.string().nullable(),
  ai: AiReplyMeta.nullable(),
});
export type AiDraftAnswer = z.input<typeof AiDraftAnswer>;

/** `POST /business/ai/messages/{id}/rating` */
export const AiRatingRequest = z.strictObject({
  rating: z.enum(['up', 'down']),
  feedback: z.string().trim().max(2000).default(''),
  enquiry_id: Uuid.nullable().optional(),
  message: z.string().max(10_000).default(''),
  response: z.string().max(10_000).default(''),
  location_id: Uuid.nullable().optional(),
});
export const AiRating = z.object({
  id: z.string(),
  message_id: z.string(),
  enquiry_id: z.string().nullable(),
  location_id: z.string().nullable(),
  rating: z.enum(['up', 'down']),
  feedback: z.string(),
  message: z.string(),
  response: z.string(),
  user_name: z.string().nullable(),
  created_at: Timestamp,
});
export type AiRating = z.input<typeof AiRating>;
export const AiRatingPage = pageOf(AiRating);

/** The playground: the owner's own conversations with the assistant. */
export const AiPlayEnquiry = z.object({
  id: z.string(),
  title: z.string(),
  location_id: z.string().nullable(),
  updated_at: Timestamp,
});
export type AiPlayEnquiry = z.input<typeof AiPlayEnquiry>;
export const AiPlayEnquiryList = z.object({ items: z.array(AiPlayEnquiry) });

export const AiPlayMessage = z.object({
  id: z.string(),
  role: z.enum(['customer', 'assistant']),
  message: z.string(),
  ai: AiReplyMeta.nullable(),
  created_at: Timestamp,
});
export type AiPlayMessage = z.input<typeof AiPlayMessage>;
export const AiPlayMessagePage = pageOf(AiPlayMessage);

export const AI_PLAY_MAX = 4000;

/** `POST /business/ai/messages` starts a conversation; `POST /business/ai/messages/{id}` continues one. */
export const AiPlayRequest = z.strictObject({
  message: z.string().trim().min(1, 'Write a message.').max(AI_PLAY_MAX),
  location_id: Uuid.nullable().optional(),
});
/** The assistant's answer in the playground: `message` is its reply, with the whole exchange. */
export const AiPlayAnswer = z.object({
  message: z.string(),
  enquiry: AiPlayEnquiry,
  customer_message: AiPlayMessage,
  reply: AiPlayMessage,
});
export type AiPlayAnswer = z.input<typeof AiPlayAnswer>;

export const AI_RECRAWL = ['never', 'daily', 'weekly', 'monthly'] as const;

/** Something the assistant learns from: an uploaded file or a website, and what came of it. */
export const AiDocument = z.object({
  id: z.string(),
  kind: z.enum(['file', 'url']),
  name: z.string(),
  url: z.string().nullable(),
  size: z.number(),
  status: z.enum(['processing', 'ready', 'failed']),
  /** Why it failed, in words. */
  error: z.string().nullable(),
  recrawl: z.enum(AI_RECRAWL),
  crawled_at: Timestamp.nullable(),
  created_at: Timestamp,
  section_count: z.number(),
  proposed_count: z.number(),
});
export type AiDocument = z.input<typeof AiDocument>;
export const AiDocumentList = z.object({ items: z.array(AiDocument) });
export const AiDocumentPatch = z.strictObject({ recrawl: z.enum(AI_RECRAWL) });

/** A tool's parameters: a JSON schema object whose properties are strings, numbers, integers or booleans. */
export const AiToolParameters = z.strictObject({
  type: z.literal('object'),
  properties: z.record(
    z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'Parameter names are lower case letters, digits and _.'),
    z.strictObject({
      type: z.enum(['string', 'number', 'integer', 'boolean']),
      description: z.string().max(500).default(''),
    }),
  ),
  required: z.array(z.string()).default([]),
});
export type AiToolParameters = z.infer<typeof AiToolParameters>;

const ToolName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, 'A tool name is lower case letters, digits and _ (like check_booking).');

const ToolHeaderName = z.string().regex(/^[A-Za-z0-9-]{1,60}$/, 'Header names are letters, digits and -.');
const ToolFields = {
  name: ToolName,
  description: z.string().trim().min(1, 'Say what the tool does, for the assistant.').max(1000),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url_template: z.string().trim().min(1).max(2000),
  body_template: z.string().max(10_000).nullable(),
  parameters: AiToolParameters,
};

/** One tool as the owner writes it; header values are secrets (sent once, shown masked after). */
export const AiToolInput = z.strictObject({
  ...ToolFields,
  method: ToolFields.method.default('GET'),
  headers: z.record(ToolHeaderName, z.string().max(2000)).default({}),
  body_template: ToolFields.body_template.optional(),
  parameters: AiToolParameters.default({ type: 'object', properties: {}, required: [] }),
});
export type AiToolInput = z.input<typeof AiToolInput>;

/** `POST /business/ai/tools`: `tools`, one or more. */
export const AiToolsRequest = z.strictObject({ tools: z.array(AiToolInput).min(1).max(20) });
/**
 * `PUT /business/ai/tools/{id}`: only what is sent changes (no defaults). A header sent as null is removed; one
 * not sent keeps its stored value.
 */
export const AiToolPatch = z
  .strictObject({ ...ToolFields, headers: z.record(ToolHeaderName, z.string().max(2000).nullable()) })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'Nothing to change: send the fields to change.');

export const AiTool = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  method: z.string(),
  url_template: z.string(),
  /** Header names with their values masked. */
  headers: z.record(z.string(), z.string()),
  body_template: z.string().nullable(),
  parameters: AiToolParameters,
  updated_at: Timestamp,
});
export type AiTool = z.input<typeof AiTool>;
export const AiToolList = z.object({ items: z.array(AiTool) });

/** `POST /business/ai/tools/{id}/test`: runs the tool with these arguments. */
export const AiToolTestRequest = z.strictObject({ arguments: z.record(z.string(), z.unknown()).default({}) });
export const AiToolTestResult = z.object({
  ok: z.boolean(),
  status: z.number().nullable(),
  /** The start of what came back (or why nothing did). */
  body: z.string(),
  ms: z.number(),
});
export type AiToolTestResult = z.infer<typeof AiToolTestResult>;

export const AI_FLOW_STEP_KINDS = ['ask', 'collect', 'tool', 'message', 'handoff'] as const;
/** Customer fields a flow can fill. */
export const AI_CUSTOMER_FIELDS = ['name', 'first_name', 'email', 'phone'] as const;

/**
 * A step of a flow. `ask` sends `text` and keeps the reply as `save_as`; `collect` puts a kept value into the
 * customer's record; `tool` calls a tool with `arguments` (templates of kept values) and keeps its answer as
 * `save_as`; `message` sends `text`; `handoff` hands over to a person (with `text`, or the usual words).
 * Texts may use {first_name}, {business_name}, {location_name} and any kept value as {name}.
 */
export const AiFlowStep = z.strictObject({
  position: z.number().int().min(0),
  kind: z.enum(AI_FLOW_STEP_KINDS),
  text: z.string().trim().max(2000).optional(),
  save_as: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, 'Names are lower case letters, digits and _.')
    .optional(),
  field: z.enum(AI_CUSTOMER_FIELDS).optional(),
  from: z.string().max(40).optional(),
  tool_id: z.string().optional(),
  arguments: z.record(z.string(), z.string().max(500)).optional(),
});
export type AiFlowStep = z.infer<typeof AiFlowStep>;

const FlowFields = {
  name: z.string().trim().min(1, 'Name the flow.').max(200),
  keywords: z.array(z.string().trim().min(1).max(100)).max(30),
  intent: z.string().trim().max(500),
  action: z.enum(AI_AUTO_REPLY_ACTIONS),
  steps: z.array(AiFlowStep).max(30),
  location_ids: z.array(Uuid).max(200).nullable(),
};

export const AiFlowInput = z.strictObject({
  ...FlowFields,
  keywords: FlowFields.keywords.default([]),
  intent: FlowFields.intent.default(''),
  action: FlowFields.action.default('off'),
  steps: FlowFields.steps.default([]),
  location_ids: FlowFields.location_ids.optional(),
});
export type AiFlowInput = z.input<typeof AiFlowInput>;
/** `PUT /business/ai-flows/{id}`: only what is sent changes. */
export const AiFlowPatch = z
  .strictObject(FlowFields)
  .partial()
  .refine(
    (v) => Object.keys(v).length > 0,
    'Nothing to change: send name, keywords, intent, action, steps or location_ids.',
  );

export const AiFlow = z.object({
  id: z.string(),
  name: z.string(),
  keywords: z.array(z.string()),
  intent: z.string(),
  action: z.enum(AI_AUTO_REPLY_ACTIONS),
  steps: z.array(AiFlowStep),
  location_ids: z.array(z.string()).nullable(),
  updated_at: Timestamp,
});
export type AiFlow = z.input<typeof AiFlow>;
export const AiFlowList = z.object({ items: z.array(AiFlow) });
