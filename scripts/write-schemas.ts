// Regenerates schemas/*.schema.json from the zod shapes in cli/schema/. Run: npm run schemas
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTENT_TYPES, type ContentType, schemaFileName } from '../cli/schema/index.ts';
import { schemaFileText } from '../cli/schema/json-schema.ts';

const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
for (const type of Object.keys(CONTENT_TYPES) as ContentType[]) {
  writeFileSync(dir + schemaFileName(type), schemaFileText(type));
}
console.log(`wrote ${Object.keys(CONTENT_TYPES).length} schemas to schemas/`);
