// `npm run docs:protocol`: writes the generated part of docs/machine-protocol.md and the JSON schema
// files from the code (server/gateway/protocolReference.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SCHEMA_FOLDER, schemaFiles, withReference } from '../server/gateway/protocolReference';

const DOCUMENT = 'docs/machine-protocol.md';
writeFileSync(DOCUMENT, withReference(readFileSync(DOCUMENT, 'utf8')));
mkdirSync(SCHEMA_FOLDER, { recursive: true });
for (const [path, content] of schemaFiles()) writeFileSync(path, content);
console.log(`${DOCUMENT} and ${SCHEMA_FOLDER}/ written`);
