import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { createSerializerCompiler } from 'fastify-type-provider-zod';

/**
 * Answers go out through their route's contract (`response: { 200: answer(...) }`): a field the contract does
 * not name is not sent. In strict mode (tests: STRICT_ANSWERS), a handler that returns such a field fails
 * with an error naming it, so a contract that forgot a field the web app reads cannot pass the suite.
 */
export function answerSerializer(options: { strict: boolean }): FastifySerializerCompiler<unknown> {
  const zodCompiler = createSerializerCompiler({});
  if (!options.strict) return zodCompiler as FastifySerializerCompiler<unknown>;
  const strict: FastifySerializerCompiler<unknown> = (route) => {
    const serialise = (zodCompiler as FastifySerializerCompiler<unknown>)(route);
    return (data: unknown) => {
      const json = serialise(data);
      const dropped = droppedFields(JSON.parse(JSON.stringify(data)), JSON.parse(json));
      if (dropped.length)
        throw new Error(
          `${route.method} ${route.url}: the answer carries ${dropped.join(', ')}, which its contract does not name`,
        );
      return json;
    };
  };
  return strict;
}

/** Paths present in `sent` (what the handler returned) and missing from `kept` (what the contract let out). */
export function droppedFields(sent: unknown, kept: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(kept)) return [];
    return sent.flatMap((item, i) => droppedFields(item, kept[i], `${path}[${i}]`)).slice(0, 10);
  }
  if (!sent || typeof sent !== 'object' || !kept || typeof kept !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const at = path ? `${path}.${key}` : key;
    if (!(key in kept)) out.push(at);
    else out.push(...droppedFields(value, (kept as Record<string, unknown>)[key], at));
  }
  return out;
}
