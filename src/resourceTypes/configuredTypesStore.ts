// The configured resource types the signed-in user may list, kept current: fetched after sign-in
// (GET /resource-types/active), again when the console opens a configured type's route and every
// 30 s while the page is visible (./ConfiguredTypesProvider), and right after the type editor saves.
// The data provider and the i18n provider read it outside React; the console re-renders on changes.
import type { TranslationMessages } from 'ra-core';
import type { Locale } from '../../i18n';
import type { HttpClient } from '../providers/httpTypes';
import type { ConfiguredType } from './configuredType';
import { runtimeResources, withConfiguredMessages, type RuntimeResources } from './runtime';

export const ACTIVE_TYPES_PATH = '/resource-types/active';

export interface RuntimeSnapshot extends RuntimeResources {
  /** The first answer (or failure) has arrived. */
  loaded: boolean;
}

// Members are function properties, not methods: they are passed around detached (useSyncExternalStore).
export interface ConfiguredTypesStore {
  snapshot: () => RuntimeSnapshot;
  subscribe: (listener: () => void) => () => void;
  /** Fetches the active types; listeners hear of it only when a type was added, changed or removed. */
  refresh: () => Promise<void>;
  /** Runs (and is awaited) before listeners are told, e.g. to reload the i18n provider's messages. */
  beforeChange: (hook: () => unknown) => void;
  /** `base` with the configured types' labels in `locale`. */
  messagesWith: (base: TranslationMessages) => TranslationMessages;
  /** The current declarations (code-declared and configured), for the data provider. */
  registry: () => RuntimeResources['registry'];
}

/** Identity of an answer: a changed version, a new, archived or removed type all differ. */
const signatureOf = (types: readonly ConfiguredType[]) =>
  types
    .map((type) => `${type.name}@${type.version ?? 0}:${type.status ?? 'active'}`)
    .sort()
    .join(',');

export const createConfiguredTypesStore = (http: HttpClient, locale: Locale): ConfiguredTypesStore => {
  let snapshot: RuntimeSnapshot = { ...runtimeResources([]), loaded: false };
  let signature = '';
  let hook: () => unknown = () => undefined;
  let pending: Promise<void> | null = null;
  const listeners = new Set<() => void>();

  const publish = async (next: RuntimeSnapshot) => {
    snapshot = next;
    await hook();
    for (const listener of listeners) listener();
  };

  const fetchOnce = async () => {
    let types: ConfiguredType[] | null = null;
    try {
      types = (await http.get<ConfiguredType[]>(ACTIVE_TYPES_PATH, undefined, { silent: true })) ?? [];
    } catch {
      // a failed poll keeps what is shown (the next one retries); the first failure still ends the wait
    }
    if (types === null) {
      if (!snapshot.loaded) await publish({ ...snapshot, loaded: true });
      return;
    }
    const nextSignature = signatureOf(types);
    if (snapshot.loaded && nextSignature === signature) return;
    signature = nextSignature;
    await publish({ ...runtimeResources(types), loaded: true });
  };

  return {
    snapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh() {
      // one request at a time: a navigation during a poll shares it
      pending ??= fetchOnce().finally(() => {
        pending = null;
      });
      return pending;
    },
    beforeChange(next) {
      hook = next;
    },
    messagesWith: (base) => withConfiguredMessages(base, snapshot, locale),
    registry: () => snapshot.registry,
  };
};
