// Turns the English catalogue's literal type into "same keys, any string" so the Chinese catalogue
// must have exactly the English keys: a missing or extra key fails the build.
export type Catalogue<T> = { readonly [K in keyof T]: T[K] extends string ? string : Catalogue<T[K]> };
