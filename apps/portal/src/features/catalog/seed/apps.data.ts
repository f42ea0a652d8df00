export interface AppEntry {
  key: string;
  name: string;
  nameZh: string;
  tag: string;
  category: string;
  icon: string | null;
  labels: readonly string[];
  date: string;
  downloads: number;
  /** Where it is launched (an internal route) or documented (an external URL). */
  url: string;
  zh: string;
  en: string;
}

const a = (
  key: string,
  name: string,
  nameZh: string,
  tag: string,
  category: string,
  icon: string | null,
  labels: string[],
  date: string,
  downloads: number,
  url: string,
  zh: string,
  en: string,
): AppEntry => ({ key, name, nameZh, tag, category, icon, labels, date, downloads, url, zh, en });

/** The demo application centre: interactive applications the centre launches on compute nodes. */
// One row per entry reads better than one argument per line.
// prettier-ignore
export const APPS: readonly AppEntry[] = [
  a('jupyterlab', 'JupyterLab', 'JupyterLab 交互式开发', '4.2', 'ai-dev', 'icons/jupyter.svg', ['notebook', 'web', 'ai', 'open-source'], '2024-01-09', 26340, 'https://jupyterlab.readthedocs.io/',
    '在计算节点上启动 JupyterLab，选择镜像中心的任意镜像作为内核环境，数据直接读写 E-File 家目录。',
    'Start JupyterLab on a compute node with any image of the image centre as its kernel; data is read and written in your E-File home.'),
  a('code-server', 'VS Code (code-server)', 'VS Code 网页版', '4.91', 'ai-dev', 'icons/vscode.svg', ['web', 'general', 'open-source'], '2024-03-12', 15620, 'https://coder.com/docs/code-server',
    '浏览器中的 VS Code，支持远程调试 Python/C++，可接入模型广场中的代码模型作为编程助手。',
    'VS Code in the browser with remote Python/C++ debugging; connect a code model of the model zoo as an assistant.'),
  a('rstudio', 'RStudio Server', 'RStudio 统计分析', '2024.04', 'tools', null, ['web', 'general', 'open-source'], '2024-04-30', 4870, 'https://docs.posit.co/ide/server-pro/',
    'RStudio Server 与 R 4.4，预装 tidyverse、Bioconductor，适合统计与生物数据分析。',
    'RStudio Server with R 4.4, tidyverse and Bioconductor, for statistics and biological data analysis.'),
  a('tensorboard', 'TensorBoard', 'TensorBoard 训练可视化', '2.17', 'ai-dev', 'icons/tensorflow.svg', ['web', 'ai', 'open-source'], '2024-06-11', 6930, 'https://www.tensorflow.org/tensorboard',
    '指定日志目录即可查看损失曲线、计算图与嵌入投影，同时支持 PyTorch 的 SummaryWriter。',
    'Point it at a log directory for loss curves, graphs and embedding projections; works with PyTorch SummaryWriter too.'),
  a('mlflow', 'MLflow', 'MLflow 实验管理', '2.16', 'ai-dev', null, ['web', 'ai', 'open-source'], '2024-09-17', 1720, 'https://mlflow.org/docs/latest/index.html',
    '记录超参数、指标与模型版本，便于课题组内对比和复现实验。',
    'Track hyper-parameters, metrics and model versions to compare and reproduce experiments within a group.'),
  a('open-webui', 'Open WebUI', 'Open WebUI 大模型对话', '0.3', 'ai-dev', 'icons/chat.svg', ['web', 'ai', 'open-source'], '2025-02-18', 18220, 'https://docs.openwebui.com/',
    '类 ChatGPT 的网页对话界面，后端连接 vLLM 部署的 Qwen、DeepSeek 模型，支持知识库问答。',
    'A ChatGPT-like web chat backed by Qwen or DeepSeek served by vLLM, with knowledge-base QA.'),
  a('llama-factory', 'LLaMA-Factory', 'LLaMA-Factory 大模型微调', '0.9', 'ai-dev', 'icons/llm.svg', ['web', 'ai', 'open-source'], '2025-04-08', 9640, 'https://llamafactory.readthedocs.io/',
    '零代码网页界面完成 LoRA/QLoRA/全参数微调，支持百余种开源模型与多卡 DeepSpeed 训练。',
    'No-code web UI for LoRA, QLoRA and full fine-tuning of a hundred open models, with multi-card DeepSpeed.'),
  a('comfyui', 'ComfyUI', 'ComfyUI 节点式文生图', '0.2', 'ai-dev', 'icons/diffusion.svg', ['web', 'ai', 'open-source'], '2024-11-05', 11080, 'https://docs.comfy.org/',
    '节点式 Stable Diffusion 工作流编辑器，预置 SD1.5、SDXL 权重与 ControlNet。',
    'Node-based Stable Diffusion workflow editor with SD1.5, SDXL weights and ControlNet preloaded.'),
  a('sd-webui', 'Stable Diffusion WebUI', 'Stable Diffusion WebUI', '1.10', 'ai-dev', 'icons/diffusion.svg', ['web', 'ai', 'open-source'], '2024-08-20', 13470, 'https://github.com/AUTOMATIC1111/stable-diffusion-webui',
    'AUTOMATIC1111 网页界面，文生图、图生图与局部重绘，插件丰富。',
    'The AUTOMATIC1111 web UI: text-to-image, image-to-image and inpainting with many extensions.'),
  a('paraview', 'ParaView', 'ParaView 科学可视化', '5.12', 'visualization', 'icons/paraview.svg', ['desktop', 'engineering', 'open-source'], '2024-02-13', 5210, 'https://docs.paraview.org/',
    '大规模科学数据可视化，支持 OpenFOAM、VTK、NetCDF 结果，远程桌面中使用 GPU 渲染。',
    'Large-scale scientific visualization of OpenFOAM, VTK and NetCDF results, GPU-rendered in a remote desktop.'),
  a('visit', 'VisIt', 'VisIt 并行可视化', '3.4', 'visualization', null, ['desktop', 'engineering', 'open-source'], '2024-05-14', 1130, 'https://visit-sphinx-github-user-manual.readthedocs.io/',
    '劳伦斯利弗莫尔实验室的并行可视化与分析工具，可在多节点上并行渲染 TB 级数据。',
    'LLNL parallel visualization and analysis tool, rendering terabytes across several nodes.'),
  a('ovito', 'OVITO', 'OVITO 原子结构可视化', '3.10', 'visualization', null, ['desktop', 'chemistry', 'open-source'], '2024-07-09', 2440, 'https://www.ovito.org/docs/current/',
    '分子动力学与原子尺度模拟结果可视化分析，直接读取 LAMMPS dump 文件。',
    'Visual analysis of molecular dynamics and atomistic simulations, reading LAMMPS dump files directly.'),
  a('vmd', 'VMD', 'VMD 分子可视化', '1.9.4', 'visualization', null, ['desktop', 'life', 'chemistry', 'open-source'], '2024-01-23', 3620, 'https://www.ks.uiuc.edu/Research/vmd/',
    '生物分子体系可视化与轨迹分析，与 NAMD 配套，支持 Tcl/Python 脚本。',
    'Visualization and trajectory analysis of biomolecular systems, the companion of NAMD, scriptable in Tcl and Python.'),
  a('pymol', 'PyMOL', 'PyMOL 分子结构展示', '3.0', 'life-science', 'icons/protein.svg', ['desktop', 'life', 'open-source'], '2024-10-15', 2980, 'https://pymol.org/dokuwiki/',
    '开源版 PyMOL，用于展示 AlphaFold 预测结构与蛋白-配体复合物，出版级渲染。',
    'Open-source PyMOL to show AlphaFold predictions and protein-ligand complexes with publication-quality rendering.'),
  a('alphafold-web', 'AlphaFold Server (local)', 'AlphaFold 结构预测网页', '2.3.2', 'life-science', 'icons/protein.svg', ['web', 'life', 'ai', 'open-source'], '2025-01-07', 4450, '/image/GPU/bio%2Falphafold%3A2.3.2-cuda11.8',
    '上传 FASTA 序列即可提交 AlphaFold2 结构预测作业，结果与 pLDDT 图自动存入 E-File。',
    'Upload a FASTA sequence to submit an AlphaFold2 prediction job; the structure and pLDDT plot land in E-File.'),
  a('galaxy', 'Galaxy', 'Galaxy 生信分析平台', '24.1', 'life-science', 'icons/dna.svg', ['web', 'life', 'open-source'], '2024-08-27', 1890, 'https://galaxyproject.org/learn/',
    '图形化生物信息分析平台，集成上千个工具，作业自动提交到集群队列。',
    'The graphical bioinformatics platform with thousands of tools; its jobs go to the cluster queues automatically.'),
  a('nextflow', 'Nextflow + nf-core', 'Nextflow 流程管理', '24.04', 'life-science', 'icons/dna.svg', ['cli', 'life', 'open-source'], '2024-06-04', 1350, 'https://nf-co.re/docs/usage/getting_started/introduction',
    'Nextflow 工作流引擎与 nf-core 标准流程(RNA-seq、Sarek)，以 Slurm 执行器运行。',
    'The Nextflow engine with nf-core pipelines (RNA-seq, Sarek) running on the Slurm executor.'),
  a('matlab', 'MATLAB', 'MATLAB 科学计算', 'R2024a', 'simulation', null, ['desktop', 'engineering', 'commercial'], '2024-04-09', 8720, 'https://www.mathworks.com/help/matlab/',
    'MATLAB R2024a(校园许可)，含并行计算工具箱，可将 parfor 任务扩展到多节点。',
    'MATLAB R2024a (campus license) with the Parallel Computing Toolbox to scale parfor across nodes.'),
  a('comsol', 'COMSOL Multiphysics', 'COMSOL 多物理场仿真', '6.2', 'simulation', null, ['desktop', 'engineering', 'commercial'], '2024-03-05', 3960, 'https://doc.comsol.com/',
    '多物理场耦合有限元仿真，远程桌面建模、批处理模式提交大规模求解。',
    'Coupled multiphysics finite-element simulation: model in a remote desktop, solve large cases in batch mode.'),
  a('fluent', 'Ansys Fluent', 'Ansys Fluent 流体仿真', '2024 R1', 'simulation', null, ['desktop', 'engineering', 'commercial'], '2024-02-27', 5840, 'https://ansyshelp.ansys.com/',
    '商业 CFD 求解器 Fluent，按许可证数量排队，支持 GPU 原生求解器。',
    'The commercial CFD solver Fluent, queued by license count, with the native GPU solver.'),
  a('gaussview', 'GaussView', 'GaussView 量化建模', '6.1', 'simulation', null, ['desktop', 'chemistry', 'commercial'], '2024-05-28', 2750, 'https://gaussian.com/gaussview6/',
    'Gaussian 配套的分子建模与结果查看工具，生成输入文件并提交计算。',
    'The molecule builder and result viewer of Gaussian: write input files and submit runs.'),
  a('remote-desktop', 'Remote Desktop (Xfce)', '远程桌面(Xfce)', 'noVNC', 'tools', 'icons/desktop.svg', ['desktop', 'general', 'open-source'], '2023-12-19', 12480, '/full-site-list',
    '在计算节点上打开带 GPU 加速的 Linux 桌面，浏览器直接访问，无需安装客户端。',
    'A GPU-accelerated Linux desktop on a compute node, straight in the browser, no client to install.'),
  a('ncview', 'Ncview / Panoply', 'NetCDF 气象数据查看', '2.1', 'visualization', 'icons/weather.svg', ['desktop', 'climate', 'open-source'], '2024-10-29', 860, 'https://www.giss.nasa.gov/tools/panoply/',
    '快速查看 WRF、CESM 输出的 NetCDF 文件，绘制剖面与时间序列。',
    'Quick look at WRF and CESM NetCDF output: cross sections and time series.'),
  a('shell', 'Web Shell', '网页终端', '1.0', 'tools', null, ['cli', 'web', 'general', 'open-source'], '2025-06-03', 20130, '/full-site-list',
    '浏览器中的登录节点终端，支持多标签与文件拖拽上传到当前目录。',
    'A login-node terminal in the browser with tabs and drag-and-drop upload into the current directory.'),
];
