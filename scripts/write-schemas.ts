// Regenerates schemas/*.schema.json from the zod shapes in cli/schema/. Run: npm run schemas
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaFileText } from '../cli/schema/json-schema.ts';
import { CONTENT_TYPE_NAMES, schemaFileName } from '../cli/schema/layout.ts';

const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
for (const type of CONTENT_TYPE_NAMES) {
  writeFileSync(dir + schemaFileName(type), schemaFileText(type));
}
console.log(`wrote ${CONTENT_TYPE_NAMES.length} schemas to schemas/`);
