// The type management calls (superAdmin only; contract of issue 9), over the console's http and
// download clients. Failures are `ApiError`s: callers show validation issues on inputs, 9401 as the
// archive confirmation, anything else as the http client's toast (non-silent calls).
import type { DownloadClient, HttpClient } from '../providers/httpTypes';
import type { ConfiguredType } from './configuredType';

export const TYPES_PATH = '/resource-types';
/** A field removal or kind change on a type with data: refused unless `confirmArchive`. */
export const ARCHIVE_NEEDED_CODE = '9401';

export interface ImportAnswer {
  created: string[];
  updated: string[];
}

export interface ExportFile {
  format: 'rvm-resource-types';
  version: number;
  types: ConfiguredType[];
}

export const createTypesApi = (http: HttpClient, download: DownloadClient) => ({
  list: () => http.get<ConfiguredType[]>(TYPES_PATH),
  create: (type: ConfiguredType) => http.post<ConfiguredType>(TYPES_PATH, type, { silent: true }),
  update: (type: ConfiguredType, confirmArchive = false) => http.put<ConfiguredType>(TYPES_PATH, confirmArchive ? { ...type, confirmArchive: true } : type, { silent: true }),
  remove: (name: string) => http.del<null>(TYPES_PATH, { name }),
  /** How many records a type holds (the delete dialog says whether it archives or removes). */
  recordCount: async (name: string) => (await http.post<{ total: number }>(`/custom/${name}/page`, { pageNum: 1, pageSize: 1 }, { silent: true })).total,
  export: (names: readonly string[]) => download.download('GET', `${TYPES_PATH}/export`, { query: names.length ? { names: names.join(',') } : {} }),
  import: (file: ExportFile) => http.post<ImportAnswer>(`${TYPES_PATH}/import`, file),
});

export type TypesApi = ReturnType<typeof createTypesApi>;

/** The parsed export file, or null when the text is not one. */
export const parseExportFile = (text: string): ExportFile | null => {
  try {
    const parsed = JSON.parse(text) as Partial<ExportFile>;
    return parsed && parsed.format === 'rvm-resource-types' && Array.isArray(parsed.types) ? (parsed as ExportFile) : null;
  } catch {
    return null;
  }
};
