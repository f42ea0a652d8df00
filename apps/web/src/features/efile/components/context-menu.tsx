import { memo, useMemo } from 'react';
import { Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';

export type ContextAction = 'open' | 'download' | 'rename' | 'copy' | 'move' | 'share' | 'delete';

interface Props {
  at: { x: number; y: number } | null;
  onAction: (a: ContextAction) => void;
  onClose: () => void;
}

/** The right-click menu: the toolbar's actions for the row under the pointer (selected on right-click). */
export const ContextMenu = memo(function ContextMenu({ at, onAction, onClose }: Props) {
  const { t } = useTranslation();
  const items = useMemo<MenuProps['items']>(
    () =>
      (['open', 'download', 'rename', 'copy', 'move', 'share', 'delete'] as const).map((k) => ({
        key: k,
        label: t(`efile.actions.${k}`),
        danger: k === 'delete',
      })),
    [t],
  );
  return (
    <Dropdown
      open={at !== null}
      onOpenChange={(open) => !open && onClose()}
      menu={{ items, onClick: (i) => (onClose(), onAction(i.key as ContextAction)) }}
      trigger={['contextMenu']}
    >
      <span className="efile-context-anchor" style={at ? { left: at.x, top: at.y } : undefined} />
    </Dropdown>
  );
});
