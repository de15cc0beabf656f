import * as fs from 'node:fs';
import * as path from 'node:path';
import { extractSchemas, renderSchemasModule } from './schema-extractor';

/** `npx nx run api:openapi`: rewrites openapi.schemas.generated.ts from the controllers' types. */
export const GENERATED_FILE = path.join(__dirname, 'openapi.schemas.generated.ts');

if (require.main === module) {
  const text = renderSchemasModule(extractSchemas());
  fs.writeFileSync(GENERATED_FILE, text);
  console.log(`wrote ${path.relative(process.cwd(), GENERATED_FILE)} (${text.length} bytes)`);
}
