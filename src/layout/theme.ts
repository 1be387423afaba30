// Light content theme beside the dark sidebar (docs/product-rules.md#screens-and-routes), built on react-admin's default.
// Accessibility (WCAG 2 AA, README "Accessibility"): every palette colour used behind white text
// (filled chips, contained buttons, badges) or as text on white reaches 4.5:1, and selection
// controls given an `aria-label` label their <input>, the element assistive technology reads.
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { SIDEBAR_COLORS } from './sidebarColors';

/**
 * A ref setting a checkbox input's native `indeterminate` state. MUI marks a half-checked box with
 * `aria-checked="mixed"` only, which contradicts the native state of an <input type="checkbox">
 * (axe: aria-conditional-attr); with the native state set both say "mixed".
 */
export const nativeIndeterminate = (indeterminate: boolean | undefined) => (input: HTMLInputElement | null) => {
  if (input) input.indeterminate = Boolean(indeterminate);
};

/**
 * MUI's Checkbox and Radio put an `aria-label` on their root <span> (where ARIA forbids it)
 * and leave the <input> unnamed; react-admin's row-selection checkboxes are given one that way.
 * As a default of every such control, the label moves to the input, and a checkbox's input gets its
 * native indeterminate state. Explicit `inputProps` are kept (and win); a control given its own
 * `slotProps.input` replaces this default (it then names its input itself, see TreeChecklistInput).
 */
type SelectionOwner = { 'aria-label'?: string; indeterminate?: boolean; inputProps?: object };
const selectionControlDefaults = {
  slotProps: {
    root: (owner: SelectionOwner) => (owner['aria-label'] ? { 'aria-label': undefined } : {}),
    input: (owner: SelectionOwner) => {
      const given: Record<string, unknown> = { ...owner.inputProps };
      const named = 'aria-label' in given || 'aria-labelledby' in given;
      return {
        ...(owner['aria-label'] && !named ? { 'aria-label': owner['aria-label'] } : {}),
        ...('indeterminate' in owner ? { ref: nativeIndeterminate(owner.indeterminate) } : {}),
        ...given,
      };
    },
  },
} as const;

/**
 * The console's theme in the page's language: a spinner or progress bar that names nothing itself (react-admin's
 * loading page, a list refetching, a button busy) is announced by `busyLabel`, so no progress indicator is
 * nameless to a screen reader (axe's aria-progressbar-name). Components that set their own name keep it.
 */
export const consoleThemeFor = (busyLabel: string): RaThemeOptions => ({
  ...consoleTheme,
  components: {
    ...consoleTheme.components,
    MuiCircularProgress: { defaultProps: { 'aria-label': busyLabel } },
    MuiLinearProgress: { defaultProps: { 'aria-label': busyLabel } },
  },
});

export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    // Each colour below is the former one (or MUI's default) in the same hue, darkened just enough for
    // 4.5:1 as text on white, on the grey page background (#f0f2f5: list toolbars) and on a filled
    // input (focused labels), and behind white text (filled chips, contained buttons):
    // primary #1f6fd1 -> #1d66c0 (4.4:1 on the page background before), error #d32f2f -> #b71c1c
    // (MUI red 900: red 800 made 4.38:1 as a focused filled field's label on the page background, #e2e3e6), warning #ed6c02 -> #b25101 (3.1:1 with white before), info #0288d1 -> #0272b0
    // (3.9:1 before). Success (#2e7d32) already passes.
    primary: { main: '#1d66c0' },
    secondary: { main: SIDEBAR_COLORS.background },
    error: { main: '#b71c1c' },
    warning: { main: '#b25101' },
    info: { main: '#0272b0' },
    background: { default: '#f0f2f5' },
  },
  sidebar: { width: 240, closedWidth: 40 },
  components: {
    ...defaultTheme.components,
    MuiCheckbox: { defaultProps: selectionControlDefaults },
    MuiRadio: { defaultProps: selectionControlDefaults },
    // The form toolbar's band, one step lighter than react-admin's grey 300 (#e0e0e0): its Delete
    // button (error colour) needs 4.5:1 against it (4.8:1 on grey 200, 4.2:1 before).
    RaToolbar: { styleOverrides: { root: { backgroundColor: '#eeeeee' } } },
    // Unselected toggle buttons: MUI's action grey (54 % black) is 4.48:1 on the page background
    // (#f0f2f5), under 4.5:1; 70 % black reads the same and passes on white and on the page.
    MuiToggleButton: { styleOverrides: { root: { color: 'rgba(0, 0, 0, 0.7)' } } },
    // The list toolbar wraps its buttons below the filters instead of squeezing the filters into a column.
    RaListToolbar: { styleOverrides: { root: { flexWrap: 'wrap' } } },
  },
};
