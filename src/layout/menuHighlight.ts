// docs/product-rules.md#screens-and-routes: the menu entry highlighted for a path. Paths with more than three segments (a
// detail page such as /installation/rvmpage/123) highlight the path without their last segment.
export const highlightPath = (pathname: string): string => {
  const segments = pathname.split('/');
  // '/a/b/c'.split('/') gives ['', 'a', 'b', 'c']: the leading '' counts, as in the original rule.
  return segments.length > 3 ? segments.slice(0, -1).join('/') : pathname;
};

/** Whether a menu route is the active one for `pathname`. */
export const isActiveRoute = (route: string | undefined, pathname: string): boolean => {
  if (!route) return false;
  const active = highlightPath(pathname);
  return active === route || active.startsWith(`${route}/`);
};
