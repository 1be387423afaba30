// Styles of text read by assistive technology but not drawn (a count's full wording beside the bare
// number, a name for an icon-only control): the usual clip pattern, not display:none, which hides
// the text from screen readers too.
export const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
