import { type GraphTarget, graphApi } from './graph.ts';

/** A message template of the WhatsApp Business account, with the variables its body expects. */
export type WhatsAppTemplate = {
  name: string;
  language: string;
  status: string;
  category: string | null;
  body: string | null;
  /** `1`, `2`… for positional templates; the names for named ones. */
  variables: string[];
  parameter_format: 'POSITIONAL' | 'NAMED';
};

type GraphTemplate = {
  name: string;
  language: string;
  status?: string;
  category?: string;
  parameter_format?: string;
  components?: { type?: string; text?: string }[];
};

type TemplatePage = { data?: GraphTemplate[]; paging?: { next?: string } };

export function templateVariables(body: string | null): string[] {
  const names: string[] = [];
  for (const match of (body ?? '').matchAll(/\{\{\s*([\w]+)\s*\}\}/g)) {
    if (!names.includes(match[1]!)) names.push(match[1]!);
  }
  return names;
}

/** The body with each {{variable}} replaced, as the customer will read it. */
export function renderTemplate(t: Pick<WhatsAppTemplate, 'body' | 'variables'>, values: string[]): string {
  return (t.body ?? '').replace(/\{\{\s*([\w]+)\s*\}\}/g, (whole, name: string) => {
    const i = t.variables.indexOf(name);
    return i >= 0 && values[i] !== undefined ? values[i]! : whole;
  });
}

const MAX_PAGES = 10;

/** All templates of the WhatsApp Business account (Graph `/{waba_id}/message_templates`, paged). */
export async function fetchWhatsAppTemplates(
  graph: GraphTarget,
  wabaId: string,
): Promise<WhatsAppTemplate[]> {
  const origin = new URL(graph.base).origin;
  const fields = 'name,language,status,category,parameter_format,components';
  let next: string | undefined = `/${wabaId}/message_templates?fields=${fields}&limit=100`;
  const templates: WhatsAppTemplate[] = [];
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const res: TemplatePage = await graphApi<TemplatePage>(graph, 'GET', next);
    for (const t of res.data ?? []) {
      const body = t.components?.find((c) => c.type?.toUpperCase() === 'BODY')?.text ?? null;
      templates.push({
        name: t.name,
        language: t.language,
        status: t.status ?? 'UNKNOWN',
        category: t.category ?? null,
        body,
        variables: templateVariables(body),
        parameter_format: t.parameter_format?.toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
      });
    }
    // Only follow Meta's own paging links.
    const link = res.paging?.next;
    next = link && new URL(link).origin === origin ? link : undefined;
  }
  return templates;
}
