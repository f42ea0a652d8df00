import type { ServerText } from '@hpc/contracts';

/** The job service's messages for the occasion, in both languages (DECISIONS.md, "Server messages"). */
export const JobsText = {
  // features/accounts
  noComputeUser: {
    en: 'You no longer have a compute user on this cluster',
    zh: '您在此集群上已没有计算用户',
  },
  accountExpired: {
    en: 'The account has expired: jobs cannot be submitted on this centre until it is renewed',
    zh: '账户已过期：续期之前无法在该中心提交作业',
  },
  accountDeactivated: {
    en: 'The account is deactivated: jobs are unavailable on this centre until the sales manager reactivates it',
    zh: '账户已停用：需由销售经理重新启用后，才能在该中心使用作业功能',
  },
  accountNotYours: (account: string) => ({
    en: `You may not charge the account ${account} on this cluster`,
    zh: `您不能在此集群上使用账户 ${account} 计费`,
  }),

  // worker/job-worker.ts
  scriptTooLarge: (mib: string) => ({
    en: `The job script is larger than ${mib} MiB`,
    zh: `作业脚本超过 ${mib} MiB`,
  }),
  notAFolder: (path: string) => ({ en: `Not a folder: ${path}`, zh: `不是文件夹：${path}` }),
  notAFile: (path: string) => ({ en: `Not a file: ${path}`, zh: `不是文件：${path}` }),
  patternInFolder: (path: string) => ({
    en: `Slurm's % patterns (such as %x, %j) may be used in the file's name only, not in its folder: ${path}`,
    zh: `Slurm 的 % 占位符（如 %x、%j）只能用在文件名中，不能用在目录中：${path}`,
  }),
  scriptRequired: {
    en: 'A script or a script path is required',
    zh: '缺少作业脚本或脚本路径',
  },

  // worker/job-templates.ts
  templateDirNotAFolder: (dir: string) => ({ en: `${dir} is not a folder`, zh: `${dir} 不是文件夹` }),
  tooManyTemplates: (max: string) => ({ en: `At most ${max} templates`, zh: `最多保存 ${max} 个模板` }),
  cannotEnter: (dir: string) => ({
    en: `You may not enter the folder ${dir}`,
    zh: `您无权进入文件夹 ${dir}`,
  }),
  noTemplate: (name: string) => ({ en: `No template ${name}`, zh: `模板 ${name} 不存在` }),
  templateUnreadable: (name: string) => ({
    en: `The template ${name} is not one the portal can read (its file was changed by hand?)`,
    zh: `无法读取模板 ${name}（其文件是否被手工修改过？）`,
  }),
} satisfies Record<string, ServerText | ((...values: never[]) => ServerText)>;
