import { FolderOpenOutlined } from '@ant-design/icons';
import type { FileEntry } from '@hpc/contracts';
import { isImage } from '../lib/file-kinds';
import { defineAction, onFiles, type ActionContext } from './action';

/**
 * Opens one entry: a folder is shown, an image in the viewer, anything else in the text editor once the server's
 * checks pass (too large "1505", not a text type "1506": the failure is the run's, reported as a message).
 */
export async function openEntry(
  ctx: Pick<ActionContext, 'api' | 'goTo' | 'openDialog'>,
  entry: FileEntry,
): Promise<void> {
  if (entry.isDirectory) return ctx.goTo(entry.path);
  if (isImage(entry)) return ctx.openDialog({ kind: 'image', entry });
  const check = await ctx.api.previewCheck(entry.path);
  ctx.openDialog({ kind: 'editor', entry, check });
}

/** Open the selected entry (Enter opens it only when exactly one is selected; the menu opens the first). */
export const openAction = defineAction({
  id: 'open',
  labelKey: 'efile.actions.open',
  icon: <FolderOpenOutlined />,
  contextMenu: true,
  keys: [{ key: 'Enter' }],
  enabled: onFiles,
  run: async (ctx) => {
    if (ctx.trigger === 'key' && ctx.selection.length !== 1) return;
    const first = ctx.selection[0];
    if (first) await openEntry(ctx, first);
  },
});
