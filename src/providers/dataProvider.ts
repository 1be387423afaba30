// react-admin DataProvider over the generic CRUD contract of docs/ARCHITECTURE.md. Every resource is
// looked up in the declaration registry (by react-admin name = route, or by declaration name), so a
// new declaration needs no code here.
//
// `meta` switches used by the generic views:
// - `{ labels: true }`: getMany/getList answer from `GET <apiPath>/list` ({ id, name } items shaped as
//   records), cheap enough for reference labels and pickers. The meta is part of react-query's cache
//   key, so these partial records never stand in for a full getOne record in show/edit.
// - `{ all: true }`: getList pages through every record (trees need the whole set).
import { HttpError, type DataProvider, type Identifier } from 'react-admin';
import { RESOURCES } from '../../resources';
import type { PageResult, ResourceDeclaration } from '../../resources/types';
import { fieldsFor } from '../../resources/types';
import { requireDeclaration, type Registry } from './registry';
import { MAX_LIST_IDS, MAX_PAGE_SIZE, chunk, issuesOf, issuesToFormErrors, labelRecord, toPageRequest, toWireFilters, toWireId, toWireRecord, toWireSort } from './wire';
import { ApiError, type DownloadClient, type DownloadProgress, type HttpClient } from './httpTypes';

export type ExportFormat = 'csv' | 'xlsx';

export interface ExportParams {
  format: ExportFormat;
  filter?: Record<string, unknown>;
  sort?: { field?: string; order?: string };
  /** The fields to write, in this order (the list's visible columns); default the declaration's list columns. */
  columns?: string[];
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export type FilterVisibility = 'personal' | 'public';

export interface SavedFilter {
  id: number;
  resource: string;
  name: string;
  filter: Record<string, unknown>;
  visibility: FilterVisibility;
  builtIn: boolean;
  ownerId: number | null;
  mine: boolean;
}

export interface SavedFilterInput {
  id?: number;
  name: string;
  filter: Record<string, unknown>;
  visibility: FilterVisibility;
}

export interface LabelOption {
  id: Identifier;
  name: string;
}

export interface ResourceCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the resource's apiPath, e.g. '/resetPassword'. */
  path: string;
  body?: unknown;
  query?: Record<string, unknown>;
}

export interface RvmDataProvider extends DataProvider {
  /** Downloads the filtered list (`POST <apiPath>/export`); saving the blob is the caller's job. */
  export(resource: string, params: ExportParams): Promise<{ blob: Blob; filename: string }>;
  savedFilters(resource: string): Promise<SavedFilter[]>;
  saveFilter(resource: string, filter: SavedFilterInput): Promise<SavedFilter>;
  deleteFilter(id: Identifier): Promise<void>;
  /** Picker options (`GET <apiPath>/list?nameLike=`). */
  options(resource: string, nameLike?: string): Promise<LabelOption[]>;
  /** A resource-specific call below its apiPath (e.g. PUT /user/resetPassword). */
  call<T = unknown>(resource: string, call: ResourceCall): Promise<T>;
}

interface Meta {
  labels?: boolean;
  all?: boolean;
}

// The wire carries any record shape; react-admin's generic record type parameters cannot be met otherwise.
type AnyRecord = any;

const metaOf = (params: { meta?: unknown }): Meta => params.meta ?? {};

/**
 * Server validation failures become react-admin submission errors ({ body: { errors } }), which the
 * form shows under each field; any other failure passes through unchanged.
 */
const asFormError = (error: unknown): unknown => {
  if (!(error instanceof ApiError)) return error;
  const issues = issuesOf(error.data);
  if (!issues?.length) return error;
  return new HttpError(error.message, error.status ?? 400, { errors: issuesToFormErrors(issues, error.message) });
};

export const createDataProvider = (
  http: HttpClient,
  download: DownloadClient,
  /** The declarations, or a getter for them when they change at run time (configured types, issue 9). */
  registry: Registry | (() => Registry) = RESOURCES,
): RvmDataProvider => {
  const declarationOf = (resource: string) => requireDeclaration(typeof registry === 'function' ? registry() : registry, resource);

  const labels = async (declaration: ResourceDeclaration, query: Record<string, unknown>) => {
    const items = await http.get<LabelOption[]>(`${declaration.apiPath}/list`, query);
    return (items ?? []).map((item) => labelRecord(declaration, item) as AnyRecord);
  };

  const page = (declaration: ResourceDeclaration, body: Record<string, unknown>) => http.post<PageResult<AnyRecord>>(`${declaration.apiPath}/page`, body);

  const pageAll = async (declaration: ResourceDeclaration, params: Parameters<DataProvider['getList']>[1]) => {
    const records: AnyRecord[] = [];
    for (let pageNum = 1; ; pageNum += 1) {
      const body = toPageRequest(declaration, { ...params, pagination: { page: pageNum, perPage: MAX_PAGE_SIZE } });
      const result = await page(declaration, body);
      records.push(...result.list);
      if (result.list.length < MAX_PAGE_SIZE || records.length >= result.total) return { data: records, total: result.total };
    }
  };

  const write = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw asFormError(error);
    }
  };

  // Mutations are `silent`: react-admin shows their failure itself (toast or field errors), a second
  // toast from the http client would repeat it.
  const silent = { silent: true } as const;

  const provider: RvmDataProvider = {
    async getList(resource, params) {
      const declaration = declarationOf(resource);
      const meta = metaOf(params);
      if (meta.labels) {
        const filter = params.filter ?? {};
        const nameLike = filter.nameLike ?? filter.q;
        const data = await labels(declaration, nameLike ? { nameLike } : {});
        return { data, total: data.length };
      }
      if (meta.all) return pageAll(declaration, params);
      const result = await page(declaration, toPageRequest(declaration, params));
      return { data: result.list, total: result.total };
    },

    async getOne(resource, params) {
      const declaration = declarationOf(resource);
      const data = await http.get<AnyRecord>(`${declaration.apiPath}/${encodeURIComponent(String(params.id))}`);
      return { data };
    },

    async getMany(resource, params) {
      const declaration = declarationOf(resource);
      if (metaOf(params).labels) {
        const batches = chunk(params.ids, MAX_LIST_IDS);
        const answers = await Promise.all(batches.map((ids) => labels(declaration, { ids: ids.join(',') })));
        return { data: answers.flat() };
      }
      const records = await Promise.all(params.ids.map((id) => provider.getOne(resource, { id }).then(({ data }) => data)));
      return { data: records };
    },

    async getManyReference(resource, params) {
      const declaration = declarationOf(resource);
      const body = toPageRequest(declaration, { ...params, filter: { ...params.filter, [params.target]: toWireId(params.id) } });
      const result = await page(declaration, body);
      return { data: result.list, total: result.total };
    },

    async create(resource, params) {
      const declaration = declarationOf(resource);
      const body = toWireRecord(declaration, params.data, 'create', fieldsFor(declaration, 'create'));
      const data = await write(() => http.post<AnyRecord>(declaration.apiPath, body, silent));
      return { data: data ?? ({ ...body, id: undefined } as unknown as AnyRecord) };
    },

    async update(resource, params) {
      const declaration = declarationOf(resource);
      const id = toWireId(params.previousData?.id ?? params.id);
      const body = { ...toWireRecord(declaration, params.data, 'edit', fieldsFor(declaration, 'edit')), id };
      const data = await write(() => http.put<AnyRecord>(declaration.apiPath, body, silent));
      return { data: data ?? { ...params.previousData, ...body } };
    },

    async updateMany(resource, params) {
      const ids: Identifier[] = [];
      for (const id of params.ids) {
        await provider.update(resource, { id, data: params.data, previousData: { id } as AnyRecord });
        ids.push(id);
      }
      return { data: ids };
    },

    async delete(resource, params) {
      const declaration = declarationOf(resource);
      await http.del(declaration.apiPath, { id: toWireId(params.id) }, silent);
      return { data: (params.previousData ?? { id: params.id }) as never };
    },

    async deleteMany(resource, params) {
      const declaration = declarationOf(resource);
      await http.post(`${declaration.apiPath}/batchDelete`, { ids: params.ids.map(toWireId) }, silent);
      return { data: params.ids };
    },

    export(resource, { format, filter, sort, columns, onProgress, signal }) {
      const declaration = declarationOf(resource);
      // date-times in the file as the list shows them: the browser's local time
      const utcOffsetMinutes = -new Date().getTimezoneOffset();
      const body = { format, utcOffsetMinutes, ...(columns?.length ? { columns } : {}), ...toWireSort(declaration, sort), ...toWireFilters(declaration, filter) };
      return download.download('POST', `${declaration.apiPath}/export`, { body, onProgress, signal });
    },

    savedFilters(resource) {
      return http.get<SavedFilter[]>('/saved-filter', { resource: declarationOf(resource).name });
    },

    saveFilter(resource, filter) {
      const body = { ...filter, resource: declarationOf(resource).name };
      return filter.id === undefined ? http.post<SavedFilter>('/saved-filter', body) : http.put<SavedFilter>('/saved-filter', body);
    },

    async deleteFilter(id) {
      await http.del('/saved-filter', { id: toWireId(id) });
    },

    options(resource, nameLike) {
      return http.get<LabelOption[]>(`${declarationOf(resource).apiPath}/list`, nameLike ? { nameLike } : {});
    },

    call<T = unknown>(resource: string, { method, path, body, query }: ResourceCall) {
      return http.request<T>(method, `${declarationOf(resource).apiPath}${path}`, { body, query });
    },
  };
  return provider;
};
