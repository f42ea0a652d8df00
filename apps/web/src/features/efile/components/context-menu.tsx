import { memo, useMemo } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionView } from '../actions/use-efile-actions';

interface Props {
  at: { x: number; y: number } | null;
  /** The registry's actions as they stand; those of the context menu are shown. */
  actions: ActionView[];
  onRun: (id: string) => void;
  onClose: () => void;
}

/** The right-click menu: the registry's menu actions for the row under the pointer (selected on right-click). */
export const ContextMenu = memo(function ContextMenu({ at, actions, onRun, onClose }: Props) {
  const { t } = useTranslation();
  const items = useMemo<MenuProps['items']>(
    () =>
      actions
        .filter((a) => a.contextMenu)
        .map((a) => ({
          key: a.id,
          label: t(a.labelKey),
          icon: a.icon,
          danger: a.danger,
          disabled: a.disabled,
        })),
    [actions, t],
  );
  return (
    <Dropdown
      open={at !== null}
      onOpenChange={(open) => !open && onClose()}
      menu={{ items, onClick: (i) => (onClose(), onRun(i.key)) }}
      trigger={['contextMenu']}
    >
      <span className="efile-context-anchor" style={at ? { left: at.x, top: at.y } : undefined} />
    </Dropdown>
  );
});
