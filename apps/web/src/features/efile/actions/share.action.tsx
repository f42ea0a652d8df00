import { ShareAltOutlined } from '@ant-design/icons';
import { defineAction, onFiles } from './action';

/** Share one entry: the sharing dialog (link, extraction code, validity, Linux commands). */
export const shareAction = defineAction({
  id: 'share',
  labelKey: 'efile.actions.share',
  verbKey: 'efile.verbs.share',
  icon: <ShareAltOutlined />,
  toolbar: 'selection',
  contextMenu: true,
  selection: 'one',
  enabled: onFiles,
  run: ({ selection, openDialog }) => {
    const [entry] = selection;
    if (entry) openDialog({ kind: 'share', entry });
  },
});
