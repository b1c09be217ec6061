import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat request as the fake server received it. */
export type ChatRequest = {
  model: string;
  messages: { role: string; content: unknown; tool_calls?: unknown[] }[];
  tools?: { type: string; function: { name: string; description?: string; parameters: unknown } }[];
  response_format?: { type: string; json_schema?: unknown };
};

/** What the fake model answers: text, a tool call, an HTTP error, or nothing for a while. */
export type ChatAnswer =
  | { content: string }
  | { tool: { name: string; arguments: Record<string, unknown> } }
  | { status: number; error: string }
  | { delayMs: number; content: string };

/**
 * An OpenAI-compatible server on loopback for tests: `/v1/chat/completions` (text, JSON content for structured
 * output, tool calls, errors, slowness) and `/v1/embeddings`. Each chat request is answered by `respond`.
 */
export async function startFakeOpenAi(respond: (request: ChatRequest, index: number) => ChatAnswer) {
  const requests: ChatRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}');
    if (req.url === '/v1/embeddings') {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          object: 'list',
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
          model: body.model,
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
      return;
    }
    if (req.url !== '/v1/chat/completions') {
      res.statusCode = 404;
      res.end('{}');
      return;
    }
    requests.push(body);
    const answer = respond(body, requests.length - 1);
    if ('status' in answer) {
      res.statusCode = answer.status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { message: answer.error, type: 'server_error' } }));
      return;
    }
    if ('delayMs' in answer) await new Promise((r) => setTimeout(r, answer.delayMs));
    const message =
      'tool' in answer
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${requests.length}`,
                type: 'function',
                function: { name: answer.tool.name, arguments: JSON.stringify(answer.tool.arguments) },
              },
            ],
          }
        : { role: 'assistant', content: answer.content };
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'tool' in answer ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A tiny deterministic embedding: letter counts, so similar words give similar vectors. */
function embed(text: string): number[] {
  const v = new Array<number>(26).fill(0);
  for (const ch of text.toLowerCase()) {
    const i = ch.charCodeAt(0) - 97;
    if (i >= 0 && i < 26) v[i] = (v[i] ?? 0) + 1;
  }
  return v;
}
