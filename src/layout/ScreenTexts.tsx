// The screens' catalogue sections arrive after the console's (src/providers/consoleI18n.ts, issue 8's home
// budget): the home dashboard's cards and the shell render without them; any other route, and the home's
// charts, wait here (inside the content's Suspense and error boundary: a failed chunk shows the chunk
// load error with its Reload).
import { createContext, use, useContext, type ReactNode } from 'react';
import type { ScreenTexts } from '../providers/consoleI18n';

// Without a provider (tests rendering parts of the console over the whole catalogue) there is nothing to wait for.
const ScreenTextsContext = createContext<ScreenTexts>({ ready: () => true, load: () => Promise.resolve() });
export const ScreenTextsProvider = ScreenTextsContext.Provider;

/** Suspends until the screens' sections are in the translator. */
export const useScreenTexts = () => {
  const texts = useContext(ScreenTextsContext);
  if (!texts.ready()) use(texts.load());
};

const AwaitScreenTexts = () => {
  useScreenTexts();
  return null;
};

/**
 * Shows `children` once the screens' sections are in the translator. The wait is their sibling, not their
 * parent: while it suspends, React pre-renders them (uncommitted), so a screen's own lazy chunk is fetched
 * together with the texts rather than after them.
 */
export const WithScreenTexts = ({ children }: { children: ReactNode }) => (
  <>
    <AwaitScreenTexts />
    {children}
  </>
);
