// A record's image and file fields hold uploaded files' ids (docs/files.md "Field values"): each must name
// a file of the caller's license account. Called from the engine's write path (server/crud/write.ts) next
// to its reference check, in the write's transaction: the file rows are marked saved, which locks them until
// the write commits, so the removal of files no record holds (./cleanup.ts) waits for it and then sees it.
import { and, eq, inArray } from 'drizzle-orm';
import { isFileKind } from '../../resources/files';
import type { FieldDeclaration } from '../../resources/types';
import type { Caller } from '../auth/principal';
import type { Db } from '../db/client';
import { uploadedFile } from '../db/schema';
import { invalidField } from '../lib/errors';

export const checkFileFields = async (tx: Db, caller: Caller, fields: Readonly<Record<string, FieldDeclaration>>, input: Readonly<Record<string, unknown>>) => {
  const wanted = Object.entries(fields).filter(([name, field]) => isFileKind(field.type) && !field.readOnly && typeof input[name] === 'number');
  if (wanted.length === 0) return;
  const account = caller.principal.licenseAccountId;
  const ids = wanted.map(([name]) => input[name] as number);
  const owned =
    account === null
      ? []
      : await tx
          .update(uploadedFile)
          .set({ saved: true })
          .where(and(eq(uploadedFile.licenseAccountId, account), inArray(uploadedFile.id, ids)))
          .returning({ id: uploadedFile.id });
  const found = new Set(owned.map((row) => row.id));
  const foreign = wanted.find(([name]) => !found.has(input[name] as number));
  if (foreign) throw invalidField(foreign[0], 'validation.file');
};
