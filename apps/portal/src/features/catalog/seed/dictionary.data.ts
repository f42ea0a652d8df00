import type { CatalogKind } from '../../../db/tables/catalog.tables';

/** [value, 中文, English] */
export type Term = readonly [string, string, string];

export const ACCELERATORS: readonly Term[] = [
  ['GPU', 'GPU 加速卡', 'GPU'],
  ['DCU', 'DCU 加速卡(海光)', 'DCU (Hygon)'],
  ['CPU', '通用 CPU', 'CPU only'],
];

export const CATEGORIES: Record<CatalogKind, readonly Term[]> = {
  image: [
    ['dl-framework', '深度学习框架', 'Deep learning frameworks'],
    ['llm-inference', '大模型推理', 'LLM inference'],
    ['molecular-dynamics', '分子动力学', 'Molecular dynamics'],
    ['cfd', '计算流体力学', 'Computational fluid dynamics'],
    ['quantum-chemistry', '量子化学与第一性原理', 'Quantum chemistry and DFT'],
    ['bioinformatics', '生物信息', 'Bioinformatics'],
    ['weather', '气象海洋', 'Weather and climate'],
    ['base', '基础环境与编译器', 'Base OS and compilers'],
  ],
  model: [
    ['llm', '大语言模型', 'Large language models'],
    ['cv', '计算机视觉', 'Computer vision'],
    ['multimodal', '多模态与生成', 'Multimodal and generative'],
    ['nlp', '自然语言理解', 'Language understanding'],
    ['speech', '语音', 'Speech'],
    ['science', 'AI for Science', 'AI for Science'],
  ],
  app: [
    ['ai-dev', 'AI 开发', 'AI development'],
    ['simulation', '仿真计算', 'Simulation'],
    ['visualization', '科学可视化', 'Scientific visualization'],
    ['life-science', '生命科学', 'Life science'],
    ['tools', '通用工具', 'General tools'],
  ],
};

/** Label groups per kind: [group, 中文, English, labels]. Label values are unique within a kind. */
export const LABEL_GROUPS: Record<
  CatalogKind,
  ReadonlyArray<readonly [string, string, string, readonly Term[]]>
> = {
  image: [
    [
      'framework',
      '框架',
      'Framework',
      [
        ['pytorch', 'PyTorch', 'PyTorch'],
        ['tensorflow', 'TensorFlow', 'TensorFlow'],
        ['paddlepaddle', '飞桨 PaddlePaddle', 'PaddlePaddle'],
        ['mindspore', '昇思 MindSpore', 'MindSpore'],
        ['jax', 'JAX', 'JAX'],
        ['vllm', 'vLLM', 'vLLM'],
      ],
    ],
    [
      'domain',
      '领域',
      'Domain',
      [
        ['ai', '人工智能', 'Artificial intelligence'],
        ['md', '分子模拟', 'Molecular simulation'],
        ['fluid', '流体力学', 'Fluid dynamics'],
        ['materials', '材料计算', 'Materials'],
        ['life', '生命科学', 'Life science'],
        ['climate', '气象气候', 'Weather and climate'],
        ['general', '通用', 'General purpose'],
      ],
    ],
    [
      'runtime',
      '运行环境',
      'Runtime',
      [
        ['cuda12', 'CUDA 12', 'CUDA 12'],
        ['cuda11', 'CUDA 11', 'CUDA 11'],
        ['dtk', 'DTK / ROCm', 'DTK / ROCm'],
        ['mpi', 'MPI 并行', 'MPI parallel'],
        ['oneapi', 'Intel oneAPI', 'Intel oneAPI'],
      ],
    ],
    [
      'os',
      '操作系统',
      'Operating system',
      [
        ['ubuntu22', 'Ubuntu 22.04', 'Ubuntu 22.04'],
        ['ubuntu20', 'Ubuntu 20.04', 'Ubuntu 20.04'],
        ['rocky8', 'Rocky Linux 8', 'Rocky Linux 8'],
        ['centos7', 'CentOS 7', 'CentOS 7'],
      ],
    ],
  ],
  model: [
    [
      'framework',
      '框架',
      'Framework',
      [
        ['pytorch', 'PyTorch', 'PyTorch'],
        ['tensorflow', 'TensorFlow', 'TensorFlow'],
        ['paddlepaddle', '飞桨 PaddlePaddle', 'PaddlePaddle'],
        ['mindspore', '昇思 MindSpore', 'MindSpore'],
        ['jax', 'JAX', 'JAX'],
      ],
    ],
    [
      'task',
      '任务',
      'Task',
      [
        ['text-generation', '文本生成', 'Text generation'],
        ['code-generation', '代码生成', 'Code generation'],
        ['image-classification', '图像分类', 'Image classification'],
        ['object-detection', '目标检测', 'Object detection'],
        ['segmentation', '图像分割', 'Image segmentation'],
        ['text-to-image', '文生图', 'Text to image'],
        ['ocr', '文字识别', 'OCR'],
        ['embedding', '文本向量', 'Text embedding'],
        ['speech-recognition', '语音识别', 'Speech recognition'],
        ['protein-structure', '蛋白质结构预测', 'Protein structure'],
        ['weather-forecast', '气象预报', 'Weather forecasting'],
        ['molecular-property', '分子性质预测', 'Molecular properties'],
      ],
    ],
    [
      'precision',
      '精度',
      'Precision',
      [
        ['fp32', 'FP32', 'FP32'],
        ['fp16', 'FP16', 'FP16'],
        ['bf16', 'BF16', 'BF16'],
        ['int8', 'INT8 量化', 'INT8 quantized'],
        ['int4', 'INT4 量化', 'INT4 quantized'],
      ],
    ],
    [
      'license',
      '许可证',
      'License',
      [
        ['apache-2.0', 'Apache 2.0', 'Apache 2.0'],
        ['mit', 'MIT', 'MIT'],
        ['llama', 'Llama 社区许可', 'Llama Community License'],
        ['qwen', '通义千问许可', 'Qwen License'],
        ['openrail', 'OpenRAIL', 'OpenRAIL'],
        ['cc-by', 'CC BY 4.0', 'CC BY 4.0'],
        ['custom', '其他许可', 'Other license'],
      ],
    ],
    [
      'domain',
      '领域',
      'Domain',
      [
        ['nlp', '自然语言处理', 'NLP'],
        ['vision', '视觉', 'Vision'],
        ['multimodal', '多模态', 'Multimodal'],
        ['audio', '音频', 'Audio'],
        ['science', '科学计算', 'Science'],
      ],
    ],
  ],
  app: [
    [
      'interface',
      '使用方式',
      'Interface',
      [
        ['web', '网页应用', 'Web application'],
        ['desktop', '远程桌面', 'Remote desktop'],
        ['notebook', '交互式笔记本', 'Notebook'],
        ['cli', '命令行', 'Command line'],
      ],
    ],
    [
      'domain',
      '领域',
      'Domain',
      [
        ['ai', '人工智能', 'Artificial intelligence'],
        ['engineering', '工程仿真', 'Engineering simulation'],
        ['chemistry', '化学与材料', 'Chemistry and materials'],
        ['life', '生命科学', 'Life science'],
        ['climate', '气象气候', 'Weather and climate'],
        ['general', '通用', 'General purpose'],
      ],
    ],
    [
      'license',
      '许可',
      'License',
      [
        ['open-source', '开源', 'Open source'],
        ['commercial', '商业授权', 'Commercial'],
      ],
    ],
  ],
};
