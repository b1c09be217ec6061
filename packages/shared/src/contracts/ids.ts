import { z } from 'zod';

/**
 * A uuid as it arrives from a client, spelled lower-case from here on: PostgreSQL compares uuids in any case,
 * but everything else (rooms, cache keys, encryption context) compares text, so an id has one spelling.
 */
export const Uuid = z.uuid().transform((value) => value.toLowerCase());

/** An id in a path: any text (what is not a uuid names nothing and answers 404), lower-cased once. */
export const PathId = z
  .string()
  .max(100)
  .transform((value) => value.toLowerCase());
