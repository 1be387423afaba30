// Small DOM queries shared by the component tests (no jest-dom in this project).

/** A field's label as MUI renders it: the catalogue text, then ' *' when the field is required. */
export const labelled = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`);

/** The text of the elements an input's aria-describedby names (MUI's helper text). */
export const descriptionOf = (element: HTMLElement): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();

export const isInvalid = (element: HTMLElement) => element.getAttribute('aria-invalid') === 'true';

export const isDisabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled || element.getAttribute('aria-disabled') === 'true';

/** Cell texts of a table's body rows. */
export const rowTexts = (table: HTMLElement): string[][] =>
  [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent?.trim() ?? ''));

/** Header texts of a table. */
export const headerTexts = (table: HTMLElement): string[] => [...table.querySelectorAll('thead th')].map((cell) => cell.textContent?.trim() ?? '');
