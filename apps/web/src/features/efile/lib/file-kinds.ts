import { PREVIEWABLE_IMAGE_EXTENSIONS, type FileEntry } from '@hpc/contracts';

/**
 * Extensions opened in the text editor without asking the server first. Anything else (no extension, unknown ones)
 * goes through the server's text check too, which answers "1506" for what it will not open.
 */
const TEXT = new Set(
  'txt md markdown csv tsv log json yaml yml toml ini cfg conf py sh bash zsh slurm pbs c h cpp hpp cc cu f f90 r jl java js ts tsx jsx mjs go rs rb pl lua sql xml html css scss tex bib m out err in dat env gitignore dockerfile makefile'.split(
    ' ',
  ),
);

export const isTextLike = (ext: string): boolean => TEXT.has(ext.toLowerCase());
export const isImage = (entry: Pick<FileEntry, 'ext' | 'isDirectory'>): boolean =>
  !entry.isDirectory && (PREVIEWABLE_IMAGE_EXTENSIONS as readonly string[]).includes(entry.ext.toLowerCase());
