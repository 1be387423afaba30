// Build-only vite plugin: packages that are polyfills of built-ins every supported browser has are
// replaced by the built-in (issue 8, the home screen's download). node-polyglot (react-admin's
// translator) requires `object.entries`, whose shim machinery (get-intrinsic, call-bind, define-properties,
// has-symbols, ...) is ~35 kB before compression, and `hasown`: both are one line of the language.
import type { Plugin } from 'vite';

/** Package name → CommonJS module exporting the built-in (the packages are required from CommonJS). */
const NATIVE: Record<string, string> = {
  'object.entries': 'module.exports = Object.entries;',
  hasown: 'module.exports = Function.prototype.call.bind(Object.prototype.hasOwnProperty);',
};

const PREFIX = '\0native-builtin:';

export const nativeBuiltins = (): Plugin => ({
  name: 'rvm-native-builtins',
  apply: 'build',
  // before vite's own resolver, which would find the packages in node_modules
  enforce: 'pre',
  resolveId(source) {
    return Object.hasOwn(NATIVE, source) ? `${PREFIX}${source}` : null;
  },
  load(id) {
    return id.startsWith(PREFIX) ? { code: NATIVE[id.slice(PREFIX.length)], moduleType: 'js' } : null;
  },
});
