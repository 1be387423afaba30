// Gives every generic (and hand-written) view the declaration it renders and the registry its
// references resolve against, so a view needs no props beyond what buildResources hands it.
import { createContext, useContext, type ReactNode } from 'react';
import type { ResourceDeclaration } from '../../resources/types';
import type { Registry } from '../providers/registry';

interface DeclarationScope {
  declaration: ResourceDeclaration;
  registry: Registry;
}

const DeclarationContext = createContext<DeclarationScope | null>(null);

export const DeclarationProvider = ({ declaration, registry, children }: DeclarationScope & { children: ReactNode }) => (
  <DeclarationContext.Provider value={{ declaration, registry }}>{children}</DeclarationContext.Provider>
);

export const useDeclaration = (): DeclarationScope => {
  const scope = useContext(DeclarationContext);
  if (!scope) throw new Error('useDeclaration must be used inside a view built by buildResources');
  return scope;
};
