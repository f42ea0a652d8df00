import { ShareAltOutlined } from '@ant-design/icons';
import { defineAction, onFiles } from './action';

/** The user's shares on this centre (a drawer: each link, its code and validity, cancel). Acts on no selection. */
export const mySharesAction = defineAction({
  id: 'myShares',
  labelKey: 'efile.places.myShares',
  icon: <ShareAltOutlined />,
  toolbar: 'places',
  enabled: onFiles,
  run: ({ openDialog }) => openDialog({ kind: 'myShares' }),
});
