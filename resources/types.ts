// The resource declaration format. Framework-neutral on purpose: no React, Fastify or Drizzle here.
// The console derives its generic list/show/edit/create views from a declaration, the server derives
// its CRUD routes, JSON schemas, validation, permission checks and database queries from the same one.
// Every user-visible text is an i18n key (see i18n/), never a literal.

export type View = 'list' | 'show' | 'edit' | 'create';

export type FieldType =
  'text' | 'textarea' | 'number' | 'boolean' | 'enum' | 'date' | 'datetime' | 'reference' | 'multiReference' | 'email' | 'phone' | 'password' | 'treeParent' | 'image' | 'file';

/** An i18n key under `validation.*` (messages shared by console and server). */
export type ValidationMessageKey = string;

export interface PatternRule {
  /** A JavaScript/JSON-schema compatible regular expression source (no flags). */
  regex: string;
  /** i18n key of the message shown when the value does not match. */
  message: ValidationMessageKey;
  /** When true the value must NOT match (e.g. "cannot contain Chinese characters"). */
  negate?: boolean;
}

export interface FieldDeclaration {
  type: FieldType;
  /** Views that show this field. Defaults: every view, minus create/edit for readOnly fields. */
  views?: readonly View[];
  required?: boolean;
  /** Required on create only (e.g. password). */
  requiredOnCreate?: boolean;
  /**
   * Passwords: false checks only the declared lengths and patterns instead of the console users' password rule
   * (resources/validation.ts checkPassword), for a password typed elsewhere (a machine's keypad).
   */
  passwordRule?: false;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  /** Numbers: only whole numbers. */
  integer?: boolean;
  /**
   * Numbers: at most this many decimals (0.125 with scale 2 is refused with 1004, never rounded);
   * the console's input steps by 10^-scale. Keep it equal to the numeric column's scale.
   */
  scale?: number;
  /**
   * Numbers: the record's field that says how many decimals this one shows (a refund value of 0.1 with
   * `decimals` 2 reads 0.10, with 0 reads 0); without it, or when that field is empty, `scale` decides.
   */
  scaleField?: string;
  /**
   * No two records (in the same license account for 'licenseAccount' resources) hold the same value.
   * A database unique index is the guarantee; a conflict answers 2002 naming this field.
   */
  unique?: boolean;
  /**
   * reference / multiReference: what deleting the referenced record does to records holding it.
   * 'restrict' (the default) refuses the delete with 5002 naming this resource; 'setNull' empties the
   * field (a multiReference drops that id); 'cascade' deletes them with it (a machine's alarm history).
   */
  onDelete?: 'restrict' | 'setNull' | 'cascade';
  patterns?: readonly PatternRule[];
  /** enum: the stored values; labels are i18n keys `resources.<name>.enums.<field>.<value>`. */
  options?: readonly (string | number)[];
  /** reference / multiReference / treeParent: the name of the referenced resource. */
  reference?: string;
  /** multiReference: the join table and its two columns (server only reads these strings). */
  through?: { table: string; from: string; to: string };
  /** Set by the server (create time, creator); never accepted from the client. */
  readOnly?: boolean;
  /** Accepted on write, never returned (password). */
  writeOnly?: boolean;
  /** Not stored: only validated (e.g. confirmPassword). */
  virtual?: boolean;
  /** Database column name when it differs from the field name (snake_case is derived by default). */
  column?: string;
  sortable?: boolean;
  /**
   * Rendered as a tree (treeParent) or chips (multiReference) etc.; a hint for the console (and the
   * export): 'valueLabel' shows an enum's stored value before its label (an alarm code and its text),
   * 'duration' a number of seconds as H:mm:ss (resources/display.ts), 'optionList' a text holding a
   * comma-separated list of `options` (picked from the options with their labels, e.g. alarm codes),
   * 'excerpt' a long text cut to one short line in lists (whole on hover and on the record's page),
   * 'resourceName' an enum whose value names a resource: an option shows its enum label, any other value a
   * configured type's name (its `resources.<value>.name`, singular); its filters also take and offer the
   * configured types (the server answers 2003 for a name no resource has, docs/audit-log.md).
   */
  display?: 'chips' | 'tree' | 'avatar' | 'status' | 'valueLabel' | 'duration' | 'optionList' | 'excerpt' | 'resourceName';
  /** Console route the shown value links to; `:field` placeholders take the record's values. */
  link?: string;
  /**
   * The value of a field absent on create: the create form starts with it and the server stores it
   * when the field is not sent (so the form, the API and the column default cannot disagree).
   */
  defaultValue?: string | number | boolean;
  /** image / file: the largest upload accepted, in bytes (default per kind: resources/files.ts, docs/files.md). */
  maxBytes?: number;
  /**
   * image / file: the MIME types accepted, judged from the bytes, never the name (`image/*` for a family;
   * default per kind: resources/files.ts). The value stored is the uploaded file's id.
   */
  accept?: readonly string[];
  /**
   * image / file: the exact size in pixels a picture or video must have, read from its bytes on upload
   * (9603 naming both sizes; a type outside `accept` 9604 naming the formats; docs/files.md "Media sizes").
   */
  dimensions?: { width: number; height: number };
}

export type FilterOperator = 'eq' | 'like' | 'in' | 'gte' | 'lte' | 'range';

export interface FilterDeclaration {
  /** Filter key sent in the paging body. */
  name: string;
  /** Field it filters on. */
  field: string;
  operator: FilterOperator;
  /** Always shown in the filter bar (others are added via "Add filter"). */
  alwaysOn?: boolean;
}

/** A rule across fields, checked on the server and in the console form. */
export type CrossFieldRule =
  | { kind: 'after'; field: string; other: string; message: ValidationMessageKey }
  | { kind: 'greaterThan'; field: string; other: string; message: ValidationMessageKey }
  | { kind: 'notGreaterThan'; field: string; other: string; message: ValidationMessageKey }
  | { kind: 'equals'; field: string; other: string; message: ValidationMessageKey };

export type Action = 'page' | 'show' | 'create' | 'edit' | 'delete' | 'export';

export interface ResourceDeclaration {
  /** Resource name: react-admin resource name and i18n root `resources.<name>`. */
  name: string;
  /** API path under /test-api, e.g. '/user'. */
  apiPath: string;
  /** Console route, e.g. '/systemSettings/user' (docs/product-rules.md#menu-tree). */
  route: string;
  /** Menu entry this resource lives under (an id of resources/menu.ts). */
  menuId: number;
  /** Database table (snake_case) holding the rows. */
  table: string;
  /** Field shown as the record's label and searched by `GET <apiPath>/list?nameLike=`. */
  nameField: string;
  /**
   * Data scoping: 'licenseAccount' rows carry a license_account_id and are filtered by the caller's
   * current license account; 'global' rows are shared (e.g. the permission tree); 'custom' means the
   * server's hook for this resource supplies the condition.
   */
  scope: 'licenseAccount' | 'global' | 'custom';
  fields: Record<string, FieldDeclaration>;
  list: {
    columns: readonly string[];
    defaultSort: { field: string; order: 'ASC' | 'DESC' };
    filters: readonly FilterDeclaration[];
    /** Show as a tree (uses the treeParent field). */
    tree?: boolean;
    /**
     * Records that change by themselves (machines' status): an open list reloads its page this often
     * while the browser tab is shown (docs/fleet.md "Live pages").
     */
    refreshSeconds?: number;
  };
  /** Permission identifier per action. An action that is absent does not exist for this resource. */
  permissions: Partial<Record<Action, string>>;
  /**
   * Permanent permission ids of the resource's buttons (identifier -> id), seeded under `menuId`:
   * roles store ids, so an id never changes meaning. Every code-declared resource lists one per
   * identifier of `permissions` and `extraPermissions` (tests/unit/permissionIdentity.test.ts).
   */
  permissionIds?: Readonly<Record<string, number>>;
  /** Extra button permissions the resource's screens use (identifier -> i18n key of its name). */
  extraPermissions?: Readonly<Record<string, string>>;
  rules?: readonly CrossFieldRule[];
  /** Catalogue code answered for an id that does not exist or is out of scope (default 2003). */
  notFoundCode?: string;
  /** Hand-written views replacing generic ones: a key looked up in the console's custom view registry. */
  customViews?: Partial<Record<View, string>>;
}

export const defineResource = <const T extends ResourceDeclaration>(declaration: T): T => declaration;

/** Field names visible in a given view. */
export const fieldsFor = (declaration: ResourceDeclaration, view: View): string[] =>
  Object.entries(declaration.fields)
    .filter(([, field]) => {
      if (field.views) return field.views.includes(view);
      if (field.readOnly && (view === 'create' || view === 'edit')) return false;
      if (field.writeOnly && (view === 'list' || view === 'show')) return false;
      return true;
    })
    .map(([name]) => name);

/** The page sizes a list offers (the console's pagination; the server keeps one plan per size, server/crud/records.ts). */
export const LIST_PAGE_SIZES = [10, 20, 50, 100] as const;

/** The paging contract shared by every list (request). */
export interface PageRequest {
  pageNum: number;
  pageSize: number;
  sort?: string;
  order?: 'ASC' | 'DESC';
  [filter: string]: unknown;
}

/** The paging contract shared by every list (answer). */
export interface PageResult<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}
