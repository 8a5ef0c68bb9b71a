import { z } from 'zod';
import { CONTENT_SCHEMAS, type ContentType, schemaFileName } from './index.ts';

const SCHEMA_BASE = 'https://studio.invalid/schemas/';

/** The JSON Schema (draft 2020-12) of a content type, generated from its zod shape. */
export function toJsonSchema(type: ContentType): Record<string, unknown> {
  const json = z.toJSONSchema(CONTENT_SCHEMAS[type], {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
    reused: 'inline',
  }) as Record<string, unknown>;
  return { $schema: json.$schema, $id: SCHEMA_BASE + schemaFileName(type), ...json };
}

/** The committed text of a schema file: stable key order, two-space indent, final newline. */
export const schemaFileText = (type: ContentType) => `${JSON.stringify(toJsonSchema(type), null, 2)}\n`;
