// Regenerates schemas/*.schema.json from the zod shapes in cli/schema/ (for the editors:
// yaml-language-server; `content validate` compiles its validators from the zod shapes themselves,
// cli/validate/install-validators.ts), and docs/problems.md from the problem catalogue.
// Run: npm run schemas
import { mkdirSync, writeFileSync } from 'node:fs';
import { problemsMarkdown } from '../cli/report/problems-doc.ts';
import { schemaFileText, TRANSLATIONS_SCHEMA_FILE, translationsSchemaText } from '../cli/schema/json-schema.ts';
import { CONTENT_TYPE_NAMES, schemaFileName } from '../cli/schema/layout.ts';

const dir = `${import.meta.dirname}/../schemas/`;
for (const type of CONTENT_TYPE_NAMES) {
  writeFileSync(dir + schemaFileName(type), schemaFileText(type));
}
writeFileSync(dir + TRANSLATIONS_SCHEMA_FILE, translationsSchemaText());
const docs = `${import.meta.dirname}/../docs/`;
mkdirSync(docs, { recursive: true });
writeFileSync(`${docs}problems.md`, problemsMarkdown());
console.log(`wrote ${CONTENT_TYPE_NAMES.length + 1} schemas to schemas/, and docs/problems.md`);
