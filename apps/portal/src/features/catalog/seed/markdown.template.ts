/**
 * Markdown descriptions of the demo items, rendered from each item's own data so that they read like a centre's
 * documentation: headings, a table, bash and python blocks, an image from the catalogue storage, external links and
 * the spec's in-text links (`/image/{creation ms}#anchor`, `/model-zoo/{id}#anchor`) that the web rewrites.
 */
import type { AppEntry, ImageFamily, ImageVariant, ModelEntry } from './seed-data';

/** GitHub-style heading anchor, as the web's markdown viewer generates them. */
export const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

export const H = {
  details: '镜像信息 Image details',
  quickStart: '快速开始 Quick start',
  check: '验证环境 Check the environment',
  related: '相关资源 Related',
  modelCard: '模型信息 Model card',
  launch: '启动方式 Launch',
};

/** Links between items, resolved once the items have their ids and times. */
export interface LinkResolver {
  /** `/image/{creation ms}` of the family's first build on `accelerator` (or any) with `tag` (or any), or null. */
  image(familyKey: string, accelerator?: string, tag?: string): { href: string; label: string } | null;
  model(key: string): { href: string; label: string } | null;
  /** Keys of the models that run in an image family. */
  modelsFor(familyKey: string): string[];
  /** Keys of the models sharing an icon (the same family of models). */
  modelsWithIcon(icon: string): string[];
}

const REGISTRY = 'registry.hpc.local';
const ACCEL = {
  GPU: {
    zh: 'NVIDIA GPU',
    partition: 'gpu',
    gres: '#SBATCH --gres=gpu:1',
    flag: '--nv ',
    figure: 'gpu-node.svg',
  },
  DCU: {
    zh: '海光 DCU',
    partition: 'dcu',
    gres: '#SBATCH --gres=dcu:1',
    flag: '--rocm ',
    figure: 'dcu-node.svg',
  },
  CPU: {
    zh: '通用 CPU',
    partition: 'cpu',
    gres: '#SBATCH --ntasks-per-node=32',
    flag: '',
    figure: 'hpc-workflow.svg',
  },
} as const;

/** How a family without a check of its own is checked and run inside the job. */
const DEFAULT_CHECK = {
  lang: 'bash' as const,
  code: 'module list 2>&1; ls /opt/software',
  run: 'srun ./run.sh',
};

const table = (rows: Array<[string, string]>) =>
  ['| 项目 Item | 内容 Value |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
const fence = (lang: string, code: string) => '```' + lang + '\n' + code + '\n```';
const link = (l: { href: string; label: string }, heading: string) =>
  `[${l.label}](${l.href}#${slug(heading)})`;

export function imageMarkdown(f: ImageFamily, v: ImageVariant, links: LinkResolver): string {
  const [tag, accel, date] = v;
  const a = ACCEL[accel];
  const imageName = `${f.repo}:${tag}`;
  const sif = `${f.key}_${tag}.sif`;
  const check = f.check ?? DEFAULT_CHECK;
  const models = links.modelsFor(f.key).flatMap((k) => links.model(k) ?? []);
  const others = f.variants
    .filter((o) => o[0] !== tag)
    .flatMap((o) => {
      const l = links.image(f.key, o[1], o[0]);
      return l ? [`- ${link(l, H.details)}`] : [];
    });
  return [
    `# ${f.name} ${tag}`,
    f.zh,
    f.en,
    `![${f.name} on ${accel} nodes](/catalog-files/images/${a.figure})`,
    `## ${H.details}`,
    table([
      ['镜像名 Image', `\`${imageName}\``],
      ['加速卡 Accelerator', `${a.zh} (${accel})`],
      ['分区 Partition', `\`${a.partition}\``],
      ['发布日期 Released', date],
    ]),
    `## ${H.quickStart}`,
    '拉取镜像，或在作业中直接使用共享目录里已转换好的 SIF 文件。Pull the image, or use the converted SIF file on shared storage:',
    fence(
      'bash',
      `docker pull ${REGISTRY}/${imageName}\napptainer pull ${sif} docker://${REGISTRY}/${imageName}`,
    ),
    '提交 Slurm 作业 Submit a Slurm job:',
    fence(
      'bash',
      [
        '#!/bin/bash',
        `#SBATCH -J ${f.key}`,
        `#SBATCH -p ${a.partition}`,
        '#SBATCH -N 1',
        a.gres,
        '#SBATCH -t 04:00:00',
        'module load apptainer',
        `apptainer exec ${a.flag}/public/images/${sif} ${check.run}`,
      ].join('\n'),
    ),
    `## ${H.check}`,
    fence(check.lang, check.code),
    `## ${H.related}`,
    [
      `- [官方文档 Documentation](${f.homepage})`,
      ...models.slice(0, 4).map((l) => `- 可运行模型 Model: ${link(l, H.quickStart)}`),
      ...others,
    ].join('\n'),
  ].join('\n\n');
}

/** The opening of a model's or an application's description: title, both texts and the table of its card. */
function cardHead(
  e: ModelEntry | AppEntry,
  heading: string,
  tagName: string,
  labelNames: (values: readonly string[]) => string,
  rows: Array<[string, string]>,
): string[] {
  return [
    `# ${e.name}`,
    e.zh,
    e.en,
    `## ${heading}`,
    table([
      ['名称 Name', `${e.nameZh} / ${e.name}`],
      [tagName, e.tag],
      ['标签 Labels', labelNames(e.labels)],
      ...rows,
    ]),
  ];
}

export function modelMarkdown(
  m: ModelEntry,
  labelNames: (values: readonly string[]) => string,
  links: LinkResolver,
) {
  const image = links.image(m.runsIn, 'GPU') ?? links.image(m.runsIn);
  const llm = m.category === 'llm' || m.labels.includes('text-generation');
  const python = llm
    ? `from transformers import AutoModelForCausalLM, AutoTokenizer\n\npath = "/public/models/${m.key}"\ntok = AutoTokenizer.from_pretrained(path)\nmodel = AutoModelForCausalLM.from_pretrained(path, torch_dtype="auto", device_map="auto")\nmsgs = [{"role": "user", "content": "用一句话介绍超算中心。"}]\nids = tok.apply_chat_template(msgs, add_generation_prompt=True, return_tensors="pt").to(model.device)\nprint(tok.decode(model.generate(ids, max_new_tokens=128)[0][ids.shape[1]:], skip_special_tokens=True))`
    : `# ${m.name}: load the weights from shared storage\nimport os\n\nweights = "/public/models/${m.key}"\nprint(sorted(os.listdir(weights)))`;
  const siblings = m.icon ? links.modelsWithIcon(m.icon).filter((k) => k !== m.key) : [];
  return [
    ...cardHead(m, H.modelCard, '规模 Size', labelNames, [
      ['存储位置 Location', `\`/public/models/${m.key}\``],
      ['发布日期 Published', m.date],
    ]),
    '![模型使用流程 How a model is used](/catalog-files/images/model-pipeline.svg)',
    `## ${H.quickStart}`,
    image ? `推荐运行环境 Recommended image: ${link(image, H.quickStart)}` : '',
    fence(
      'bash',
      `ls -lh /public/models/${m.key}\n# 复制到自己的目录再微调 copy before fine-tuning\ncp -r /public/models/${m.key} ~/models/`,
    ),
    fence('python', python),
    `## ${H.related}`,
    [
      `- [模型主页 Model page](${m.homepage})`,
      ...siblings.slice(0, 3).flatMap((k) => {
        const l = links.model(k);
        return l ? [`- 同系列 Same family: ${link(l, H.modelCard)}`] : [];
      }),
    ].join('\n'),
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function appMarkdown(a: AppEntry, labelNames: (values: readonly string[]) => string): string {
  if (a.job) return batchAppMarkdown(a, a.job, labelNames);
  const desktop = a.labels.includes('desktop');
  return [
    ...cardHead(a, H.launch, '版本 Version', labelNames, [
      ['默认资源 Default resources', desktop ? '8 核 32 GB, 1 GPU' : '4 核 16 GB'],
    ]),
    '1. 在应用中心点击“启动”，选择集群、队列与时长。Click Launch, then choose cluster, queue and wall time.',
    '2. 作业开始运行后点击“连接”即可在浏览器中打开。Once the job runs, click Connect to open it in the browser.',
    '3. 会话结束时记得释放资源，未保存的数据请先写入家目录。Release the session when done; save data to your home first.',
    `![${a.name}](/catalog-files/images/hpc-workflow.svg)`,
    `## ${H.quickStart}`,
    fence(
      'bash',
      `# 也可以用命令行在计算节点上启动 Or start it from the command line\nsalloc -p ${desktop ? 'gpu' : 'cpu'} -N 1 -t 02:00:00\nmodule load ${a.key}/${a.tag}`,
    ),
    fence(
      'python',
      `# 会话信息保存在作业目录 Session details are kept in the job folder\nimport json, pathlib\n\ninfo = json.loads(pathlib.Path("~/ondemand/${a.key}/connection.json").expanduser().read_text())\nprint(info["host"], info["port"])`,
    ),
    `## ${H.related}`,
    `- [官方文档 Documentation](${a.url.startsWith('http') ? a.url : 'https://openondemand.org/'})`,
  ].join('\n\n');
}

/** A batch application: its ready job (what "run this application" puts in the Job page's form) and its resources. */
function batchAppMarkdown(
  a: AppEntry,
  job: NonNullable<AppEntry['job']>,
  labelNames: (values: readonly string[]) => string,
): string {
  const cpus = (job.tasks ?? 1) * (job.cpusPerTask ?? 1);
  const nodes = job.nodes ?? 1;
  return [
    ...cardHead(a, H.launch, '版本 Version', labelNames, [
      [
        '建议资源 Suggested resources',
        `${nodes} 节点 ${nodes === 1 ? 'node' : 'nodes'}, ${cpus} 核 ${cpus === 1 ? 'core' : 'cores'}, ${job.gpus ?? 0} GPU, ${job.timeLimitMinutes ?? 60} min`,
      ],
    ]),
    '1. 点击“运行此应用”，作业页面的提交表单会带着下面的脚本和建议资源打开。Click “Run this application”: the Job page opens its form with the script below and the suggested resources.',
    '2. 选择账户与队列，按需修改脚本和工作目录后提交。Choose the account and partition, adapt the script and working directory, and submit.',
    '3. 在“运行中与排队”中查看作业，输出文件写在工作目录。Watch it under “Running and pending”; its output is written in the working directory.',
    `![${a.name}](/catalog-files/images/hpc-workflow.svg)`,
    `## ${H.quickStart}`,
    fence('bash', job.script.trimEnd()),
    `## ${H.related}`,
    `- [官方文档 Documentation](${a.url})`,
  ].join('\n\n');
}
