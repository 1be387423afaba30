// The sidebar's dark colours, in a module of their own: the theme and the signed-out pages use them
// without loading the menu (the login page's bundle stays small).
export const SIDEBAR_COLORS = {
  background: '#304156',
  nested: '#1f2d3d',
  hover: '#263445',
  text: '#bfcbd9',
  active: '#409eff',
} as const;
