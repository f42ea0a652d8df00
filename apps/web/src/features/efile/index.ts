// The E-File feature's public face: its page for the route table; the upload engine and folder tree for others.
import { WebPages } from '@hpc/contracts';
import { folderPatch, locationSearch } from './hooks/use-efile-location';

export { uploadEngine } from './upload/upload-store';
export { createEfileApi, type EfileApi } from './api/efile.api';
export { useFolderTree } from './hooks/use-folder-tree';

/** The file manager's address showing `path` of `clusterId` (E-Shell's `efile open`). */
export const efileFolderLink = (clusterId: string, path: string) =>
  `${WebPages.efile}?${locationSearch(folderPatch(path, clusterId)).toString()}`;
