import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * Where the account alert bar of spec §4 goes (above the page, below the header). The identity work renders its
 * bar with `useAlertBar().setContent(...)`; until then the slot is empty and takes no space.
 */
interface AlertBarSlot {
  content: ReactNode;
  setContent: (node: ReactNode) => void;
}

const AlertBarContext = createContext<AlertBarSlot>({ content: null, setContent: () => undefined });

export function AlertBarProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<ReactNode>(null);
  return <AlertBarContext.Provider value={{ content, setContent }}>{children}</AlertBarContext.Provider>;
}

export const useAlertBar = () => useContext(AlertBarContext);

export function AlertBarOutlet() {
  const { content } = useAlertBar();
  return content ? <div className="hpc-alert-bar">{content}</div> : null;
}
