import { FileOutlined, FolderOutlined } from '@ant-design/icons';
import { defineAction, onFiles } from './action';

/** The Upload menu: files, or a folder with its structure (both through the browser's chooser). */
export const uploadFilesAction = defineAction({
  id: 'uploadFiles',
  labelKey: 'efile.upload.files',
  icon: <FileOutlined />,
  toolbar: 'upload',
  enabled: onFiles,
  run: ({ pickUpload }) => pickUpload('files'),
});

export const uploadFolderAction = defineAction({
  id: 'uploadFolder',
  labelKey: 'efile.upload.folder',
  icon: <FolderOutlined />,
  toolbar: 'upload',
  enabled: onFiles,
  run: ({ pickUpload }) => pickUpload('folder'),
});
