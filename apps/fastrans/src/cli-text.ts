import { FastransTaskState, Refusal, type ServerText } from '@hpc/contracts';

/**
 * The command line's words in the terminal's language: Chinese where the locale is (`LANG=zh_CN.UTF-8`), English
 * elsewhere, as the page follows its reader. The service's log lines (`serve`) stay English: they are read by
 * whoever looks at a log, and tests and tools match them.
 */
export type CliLanguage = 'en' | 'zh';

/** POSIX's order: the first of `LC_ALL`, `LC_MESSAGES`, `LANG` that is set decides. */
export function cliLanguage(env: NodeJS.ProcessEnv): CliLanguage {
  const tag = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^zh([_.@-]|$)/i.test(tag) ? 'zh' : 'en';
}

type StateName = keyof typeof FastransTaskState;
const STATE_NAMES = Object.fromEntries(Object.entries(FastransTaskState).map(([k, v]) => [v, k])) as Record<
  number,
  StateName
>;

/** The task states (spec §4) as the page names them (`fastrans.state` of the web's catalogue). */
export const CliStateText: Record<StateName, ServerText> = {
  unknown: { en: 'unknown', zh: '未知' },
  todo: { en: 'waiting', zh: '等待中' },
  connectingProxy: { en: 'connecting', zh: '连接中' },
  waitNextCommand: { en: 'waiting for a command', zh: '等待指令' },
  waitLoginInfo: { en: 'waiting for a login', zh: '等待登录' },
  ready: { en: 'ready', zh: '就绪' },
  recover: { en: 'recovering', zh: '恢复中' },
  started: { en: 'transferring', zh: '传输中' },
  stopping: { en: 'pausing', zh: '暂停中' },
  stopped: { en: 'paused', zh: '已暂停' },
  successful: { en: 'successful', zh: '成功' },
  failed: { en: 'failed', zh: '失败' },
  authFailed: { en: 'login refused', zh: '登录被拒绝' },
  proxyClosed: { en: 'server unreachable', zh: '服务器无法连接' },
};

/** The engine's own words for a failed file (`task.error`), as the page's `fastrans.taskError` says them. */
const TaskErrorText: Record<string, ServerText> = {
  cancelled: { en: 'cancelled', zh: '已取消' },
  'checksum differs': { en: 'checksum differs', zh: '校验值不一致' },
  'no answer': { en: 'no answer from the server', zh: '服务器未应答' },
};

export const CliText = {
  usage: (version: string) => ({
    en: `fastrans ${version}: the fast-transfer client of the HPC portal
  fastrans [serve]                       run the local server the E-File page drives (with FASTRANS_TOKEN: logged in)
  fastrans stop                          stop the running local server
  fastrans upload <local> <remote-dir>   upload a file or folder
  fastrans download <remote> <local-dir> download a remote file or folder
  fastrans status                        list the transfer history
  fastrans unpair                        free the client for another portal user's page (it pairs at the first)
Options: --portal URL, --overwrite; the day token from the E-File page in the environment: FASTRANS_TOKEN=…`,
    zh: `fastrans ${version}：HPC 门户的快传客户端
  fastrans [serve]                       运行供 E-File 页面驱动的本地服务（设置 FASTRANS_TOKEN 时直接登录）
  fastrans stop                          停止正在运行的本地服务
  fastrans upload <本地路径> <远程目录>  上传文件或文件夹
  fastrans download <远程路径> <本地目录> 下载远程文件或文件夹
  fastrans status                        列出传输记录
  fastrans unpair                        解除与门户用户的绑定（下一次页面登录时重新绑定）
选项：--portal 门户地址、--overwrite 覆盖；E-File 页面给出的当日令牌放在环境变量中：FASTRANS_TOKEN=…`,
  }),
  tokenInArguments: {
    en: 'The token is not taken from the arguments, which every local account can read: give it as FASTRANS_TOKEN=… in the environment',
    zh: '令牌不从命令行参数读取（本机所有账户都能看到参数）：请通过环境变量 FASTRANS_TOKEN=… 提供',
  },
  unpaired: {
    en: 'unpaired: the next page login pairs this client with its portal user',
    zh: '已解除绑定：下一次页面登录时，此客户端将与该门户用户绑定',
  },
  loggedIn: (user: string, cluster: string) => ({
    en: `logged in as ${user} on cluster ${cluster}`,
    zh: `已登录集群 ${cluster}，集群用户 ${user}`,
  }),
  notRunning: { en: 'the client is not running', zh: '客户端未在运行' },
  keyExposed: (file: string) => ({
    en: `warning: ${file} holds your client key and other accounts can read it; the key is now kept in the client's own folder: remove that file or make it yours alone (chmod 600)`,
    zh: `警告：${file} 含有您的客户端密钥，且其他账户可以读取；密钥已保存到客户端自己的目录中：请删除该文件或仅允许自己读取（chmod 600）`,
  }),
  files: (done: string, total: string) => ({ en: `${done}/${total} files`, zh: `${done}/${total} 个文件` }),
} satisfies Record<string, ServerText | ((...values: string[]) => ServerText)>;

/** One language's side of the catalogue, for a command's life. */
export function cliWords(lang: CliLanguage) {
  const say = (text: ServerText) => (lang === 'zh' ? text.zh : text.en);
  return {
    say,
    state: (state: number) => {
      const name = STATE_NAMES[state];
      return name ? say(CliStateText[name]) : String(state);
    },
    /** A task's error: the engine's own words translated, a server's "<code> <message>" or a system text as it came. */
    taskError: (error: string) => {
      const own = TaskErrorText[error];
      return own ? say(own) : error;
    },
    /** A refusal that kept its Chinese (the client's own) in the terminal's language; anything else as it came. */
    failure: (e: unknown) => (e instanceof Refusal && lang === 'zh' && e.zh ? e.zh : (e as Error).message),
  };
}
