// ESM resolve hook (registered by run.mjs): dependency-cruiser's `import('typescript')` gets TypeScript 6.
const typescript6 = new URL('./node_modules/typescript/lib/typescript.js', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (specifier === 'typescript' && context.parentURL?.includes('/node_modules/dependency-cruiser/')) {
    return next(typescript6, context);
  }
  return next(specifier, context);
}
