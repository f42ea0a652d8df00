import type { FileEntry } from '@hpc/contracts';
import type { EfileApi } from '../api/efile.api';
import { EditorDialog } from '../preview/editor-dialog';
import { ImageDialog } from '../preview/image-dialog';
import { MySharesDrawer } from '../share-dialog/my-shares';
import { ShareDialog } from '../share-dialog/share-dialog';
import { CopyMoveDialog } from './copy-move-dialog';
import { NameDialog } from './name-dialog';

/** The dialogs the file manager opens; one at a time. An action opens one through its context's `openDialog`. */
export type Dialog =
  | { kind: 'create'; type: 'file' | 'folder' }
  | { kind: 'rename'; entry: FileEntry }
  | { kind: 'copyMove'; mode: 'copy' | 'move'; paths: string[] }
  | { kind: 'share'; entry: FileEntry }
  | { kind: 'editor'; entry: FileEntry; check: { size: number; mtime: number } }
  | { kind: 'image'; entry: FileEntry }
  | { kind: 'myShares' }
  | null;

interface Props {
  api: EfileApi;
  dir: string;
  dialog: Dialog;
  maxShareDays: number;
  onClose: () => void;
  refresh: () => void;
  onOperation: (operationId: string, mode: 'copy' | 'move') => void;
}

/** The one open dialog of the file manager. */
export function FileDialogs({ api, dir, dialog, maxShareDays, onClose, refresh, onOperation }: Props) {
  if (!dialog) return null;
  const done = () => {
    onClose();
    refresh();
  };
  switch (dialog.kind) {
    case 'create':
      return <NameDialog api={api} dir={dir} createType={dialog.type} onClose={onClose} onDone={done} />;
    case 'rename':
      return <NameDialog api={api} dir={dir} entry={dialog.entry} onClose={onClose} onDone={done} />;
    case 'copyMove':
      return (
        <CopyMoveDialog
          api={api}
          mode={dialog.mode}
          paths={dialog.paths}
          onClose={onClose}
          onStarted={onOperation}
        />
      );
    case 'share':
      return <ShareDialog api={api} entry={dialog.entry} maxDays={maxShareDays} onClose={onClose} />;
    case 'editor':
      return <EditorDialog api={api} entry={dialog.entry} onClose={onClose} onSaved={refresh} />;
    case 'image':
      return <ImageDialog api={api} entry={dialog.entry} onClose={onClose} />;
    case 'myShares':
      return <MySharesDrawer api={api} onClose={onClose} />;
  }
}
