import { FileAddOutlined, FolderAddOutlined } from '@ant-design/icons';
import { defineAction, onFiles } from './action';

/** The New menu: a folder or an empty file in the folder on screen, named in the name dialog. */
export const newFolderAction = defineAction({
  id: 'newFolder',
  labelKey: 'efile.create.folder',
  icon: <FolderAddOutlined />,
  toolbar: 'create',
  enabled: onFiles,
  run: ({ openDialog }) => openDialog({ kind: 'create', type: 'folder' }),
});

export const newFileAction = defineAction({
  id: 'newFile',
  labelKey: 'efile.create.file',
  icon: <FileAddOutlined />,
  toolbar: 'create',
  enabled: onFiles,
  run: ({ openDialog }) => openDialog({ kind: 'create', type: 'file' }),
});
