import type { PickedFile } from './upload-queue';

/** Reads everything of a directory reader: readEntries answers in batches of at most 100. */
async function readAll(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  const out: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return out;
    out.push(...batch);
  }
}

const fileOf = (entry: FileSystemFileEntry) =>
  new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/**
 * The files and folders of a drop, with their structure (spec §2: folders dropped from the desktop keep their
 * structure and empty folders). `dirs` lists every folder, so the caller can create the empty ones.
 */
export async function readDrop(
  items: DataTransferItemList,
): Promise<{ files: PickedFile[]; dirs: string[] }> {
  const files: PickedFile[] = [];
  const dirs: string[] = [];
  // Entries must be taken synchronously: the list is emptied once the drop handler yields.
  const entries = [...items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry())
    .filter((e): e is FileSystemEntry => e !== null);

  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isFile) {
      files.push({ blob: await fileOf(entry as FileSystemFileEntry), relativePath: rel });
    } else if (entry.isDirectory) {
      dirs.push(rel);
      for (const child of await readAll((entry as FileSystemDirectoryEntry).createReader()))
        await walk(child, rel);
    }
  };
  for (const e of entries) await walk(e, '');
  return { files, dirs };
}

/** Files of an `<input type=file>`; a folder chooser gives `webkitRelativePath` (it never reports empty folders). */
export function readInput(list: FileList): PickedFile[] {
  return [...list].map((f) => ({ blob: f, relativePath: f.webkitRelativePath || f.name }));
}
