import { ScheduleOutlined } from '@ant-design/icons';
import { JOB_SCRIPT_EXTENSIONS, type FileEntry } from '@hpc/contracts';
import { defineAction, onFiles } from './action';

const isScript = (e: FileEntry | undefined) =>
  !!e && !e.isDirectory && (JOB_SCRIPT_EXTENSIONS as readonly string[]).includes(e.ext);

/**
 * "Submit as job" on a script file (`.slurm`, `.sh`, `.sbatch`; issue 22 §3): opens the Job page's form with the
 * file's text and its folder as the working directory. The form reads the file through E-File, as the user.
 */
export const submitJobAction = defineAction({
  id: 'submit-job',
  labelKey: 'efile.actions.submitJob',
  icon: <ScheduleOutlined />,
  toolbar: 'selection',
  contextMenu: true,
  selection: 'one',
  enabled: onFiles,
  visible: (s) => s.selection.length === 1 && isScript(s.selection[0]),
  run: (ctx) => {
    const file = ctx.selection[0];
    if (!isScript(file)) return;
    const q = new URLSearchParams({ cluster: ctx.api.clusterId, tab: 'submit', script: file!.path });
    ctx.navigate(`/jobs?${q.toString()}`);
  },
});
