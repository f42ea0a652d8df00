import { forwardRef, useImperativeHandle, useRef, useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../../shared/api/notify';
import { offerFastTransfer } from '../../fastrans';
import type { InitInfo } from '@hpc/api-client';
import type { EfileApi } from '../api/efile.api';
import { useConflictPrompt } from '../upload/conflict-prompt';
import { readDrop, readInput } from '../upload/drop-entries';
import { addToUploads } from '../upload/upload-add';
import type { PickedFile, UploadTarget } from '../upload/upload-queue';

export interface UploadPickers {
  files: () => void;
  folder: () => void;
}

interface Props {
  api: EfileApi;
  init: InitInfo;
  target: UploadTarget;
  onQueued: () => void;
  children: ReactNode;
}

/**
 * Uploads by the file choosers (files, or a folder) and by dragging onto the list; a dropped folder keeps its
 * structure and its empty folders. Everything goes through the same rules ({@link addToUploads}).
 */
export const UploadDropZone = forwardRef<UploadPickers, Props>(function UploadDropZone(
  { api, init, target, onQueued, children },
  ref,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [askConflict, conflictDialog] = useConflictPrompt();
  const [over, setOver] = useState(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({
    files: () => filesInput.current?.click(),
    folder: () => folderInput.current?.click(),
  }));

  const add = async (files: PickedFile[], dirs: string[] = []) => {
    if (files.length === 0 && dirs.length === 0) return;
    onQueued();
    try {
      await addToUploads(
        {
          api,
          target,
          folderFileLimit: init.folderFileLimit,
          maxChunkSize: init.maxChunkSize,
          askConflict,
          refuse: (reason, name) => {
            void message.warning(t(`efile.upload.refused.${reason}`, { name, limit: init.folderFileLimit }));
            // Over 1,000 files: not a dead end, fast transfer is offered at once (spec §5).
            if (reason === 'folderLimit') offerFastTransfer({ kind: 'upload', name });
          },
        },
        files,
        dirs,
      );
    } catch (e) {
      notifyError(e);
    }
  };

  const onPicked = (input: HTMLInputElement | null) => {
    if (!input?.files) return;
    const picked = readInput(input.files);
    input.value = '';
    void add(picked);
  };

  return (
    <div
      className={`efile-drop ${over ? 'efile-drop-over' : ''}`}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setOver(false);
        readDrop(e.dataTransfer.items).then(({ files, dirs }) => add(files, dirs), notifyError);
      }}
    >
      {over && <div className="efile-drop-hint">{t('efile.upload.dropHint', { path: target.dir })}</div>}
      {children}
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        onChange={(e) => onPicked(e.currentTarget)}
        data-testid="efile-input-files"
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        // React does not know the folder chooser's attribute; it is passed through as it is.
        {...{ webkitdirectory: '', directory: '' }}
        onChange={(e) => onPicked(e.currentTarget)}
        data-testid="efile-input-folder"
      />
      {conflictDialog}
    </div>
  );
});
