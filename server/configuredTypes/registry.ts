// Every configured type in memory, keyed by name, with its model and compiled validators. Each
// instance re-reads the table when its signature (max(version), count(*)) moves: a 500 ms poll on an
// unref'ed timer (works alike on PostgreSQL and PGlite; a change commits under a lock that makes
// max(version) grow in commit order, see store.ts), plus an immediate check when a request names a
// type this instance does not know yet. Only changed versions are rebuilt.
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ConfiguredType } from '../../resources/configuredTypes';
import { rowsOf, type Db } from '../db/client';
import type { ModelRegistry, ResourceModel } from '../crud/model';
import { fromRow } from './definitionRow';
import { buildConfiguredModel, type ConfiguredModel } from './model';
import { uniqueFieldOf } from './indexes';
import { bodyChecker, compileValidators, releaseValidators, type RecordValidators } from './validate';

export const POLL_MS = 500;

export interface ConfiguredEntry {
  type: ConfiguredType & { status: 'active' | 'archived'; version: number };
  model: ConfiguredModel;
  validators: RecordValidators;
}

interface TypeRow {
  name: string;
  definition: ConfiguredType;
  status: 'active' | 'archived';
  version: number;
}

export class ConfiguredTypeRegistry {
  private entries = new Map<string, ConfiguredEntry>();
  private signature = '';
  private timer?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private queued?: Promise<void>;
  private closed = false;

  constructor(
    private readonly db: Db,
    /** The code-declared models (references may point at them). */
    readonly codeModels: ModelRegistry,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.live = new Map(codeModels);
  }

  /** Every type, active and archived, by name. */
  all(): ConfiguredEntry[] {
    return [...this.entries.values()].sort((a, b) => a.type.name.localeCompare(b.type.name));
  }

  /** An active type, or undefined (unknown or archived). */
  active(name: string): ConfiguredEntry | undefined {
    const entry = this.entries.get(name);
    return entry?.type.status === 'active' ? entry : undefined;
  }

  /** An active type; a name this instance does not know triggers one immediate check first. */
  async lookup(name: string): Promise<ConfiguredEntry | undefined> {
    return this.active(name) ?? (await this.refresh(), this.active(name));
  }

  /**
   * Code models and active configured ones: what references, reference labels and delete behaviour resolve
   * against. One map kept up to date in place, so the engine's write path (services.models) always sees
   * every model that may refer to the record it deletes.
   */
  private readonly live: Map<string, ResourceModel>;

  models(): ModelRegistry {
    return this.live;
  }

  private updateLive() {
    for (const name of this.live.keys()) if (!this.codeModels.has(name) && !this.active(name)) this.live.delete(name);
    for (const entry of this.entries.values()) if (entry.type.status === 'active') this.live.set(entry.type.name, entry.model);
  }

  /**
   * Re-reads the table when its signature moved. A call during a read waits for a NEW read (the one
   * under way may have started before the caller's change committed); waiting calls share it.
   */
  refresh(force = false): Promise<void> {
    if (!this.reading) {
      this.reading = this.read(force).finally(() => {
        this.reading = undefined;
      });
      return this.reading;
    }
    this.queued ??= this.reading
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.refresh(force);
      });
    return this.queued;
  }

  private async read(force: boolean) {
    if (this.closed) return;
    const [row] = rowsOf<{ version: number; count: number }>(
      await this.db.execute(sql`select coalesce(max(version), 0)::int as version, count(*)::int as count from resource_type`),
    );
    const signature = `${row.version}/${row.count}`;
    if (!force && signature === this.signature) return;
    const rows = rowsOf<TypeRow>(await this.db.execute(sql`select name, definition, status, version from resource_type`));
    const next = new Map<string, ConfiguredEntry>();
    for (const { name, definition, status, version } of rows) {
      const known = this.entries.get(name);
      if (known && known.type.version === version && known.type.status === status) {
        next.set(name, known);
        continue;
      }
      try {
        const type = { ...fromRow(definition, name), status, version };
        const model = buildConfiguredModel(type, (constraint) => uniqueFieldOf(type, constraint));
        const validators = compileValidators(model);
        model.checkBody = bodyChecker(model, validators);
        next.set(name, { type, model, validators });
      } catch (error) {
        // A definition this version cannot serve is skipped, never the whole registry.
        this.log?.error({ err: error, type: name }, 'configured type not served');
      }
    }
    for (const [name, entry] of this.entries) if (next.get(name) !== entry) releaseValidators(entry.validators);
    this.entries = next;
    this.updateLive();
    this.signature = signature;
  }

  /** Loads everything and starts the poll. */
  async start() {
    await this.refresh(true);
    this.timer = setInterval(() => {
      if (this.closed) return;
      this.refresh().catch((error: unknown) => this.log?.warn({ err: error }, 'configured types poll failed'));
    }, POLL_MS);
    this.timer.unref();
  }

  /** Stops the poll and waits for a read under way (the database closes after this). */
  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.reading?.catch(() => undefined);
    await this.queued?.catch(() => undefined);
  }
}
