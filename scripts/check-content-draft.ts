// Temporary: zod-parses every content file until `content validate` exists. Usage: npx tsx scripts/check-content-draft.ts [content-dir]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CONTENT_SCHEMAS } from '../cli/schema/index.ts';
import { CONTENT_LAYOUT } from '../cli/schema/layout.ts';

const root = process.argv[2] ?? 'content';
let bad = 0;
for (const [type, def] of Object.entries(CONTENT_LAYOUT)) {
  const schema = CONTENT_SCHEMAS[type as keyof typeof CONTENT_SCHEMAS];
  const files =
    'dir' in def
      ? existsSync(join(root, def.dir))
        ? readdirSync(join(root, def.dir))
            .filter((f) => f.endsWith('.yaml'))
            .map((f) => join(root, def.dir, f))
        : []
      : [join(root, def.file)].filter(existsSync);
  for (const file of files) {
    const r = schema.safeParse(parse(readFileSync(file, 'utf8'), { uniqueKeys: true }));
    if (!r.success) {
      bad++;
      console.log(`${file} (${type}):`);
      for (const i of r.error.issues) console.log(`  ${i.path.join('.')}: ${i.message}`);
    } else console.log(`ok ${file}`);
  }
}
process.exit(bad ? 1 : 0);
