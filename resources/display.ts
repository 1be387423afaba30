// Display rules of declared fields shared by the console's views and the server's exports, so a value
// reads the same on screen and in a CSV/XLSX file (resources/types.ts `display` and `link`).

const pad = (value: number) => String(value).padStart(2, '0');

/** `display: 'duration'`: seconds as H:mm:ss (hours unbounded), the same in every language. */
export const formatDuration = (seconds: unknown): string => {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '';
  const total = Math.max(0, Math.round(seconds));
  return `${Math.floor(total / 3600)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
};

/** `display: 'valueLabel'`: the stored value, then its label when there is one. */
export const valueWithLabel = (value: unknown, label: string | undefined): string => {
  const text = String(value ?? '');
  return label && label !== text ? `${text} – ${label}` : text;
};

/** `link`: the route with each `:field` replaced by the record's value; null when one is missing. */
export const linkFor = (template: string, record: Readonly<Record<string, unknown>> | undefined): string | null => {
  let missing = false;
  const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, field: string) => {
    const value = record?.[field];
    if (value === null || value === undefined || value === '') missing = true;
    return encodeURIComponent(String(value ?? ''));
  });
  return missing ? null : path;
};
