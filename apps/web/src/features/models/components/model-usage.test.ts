import { describe, expect, it } from 'vitest';
import type { ModelCard } from '@hpc/contracts';
import { modelDirectory, modelUsage } from './model-usage';

const model: ModelCard = {
  id: 58,
  name: '通义千问 Qwen2.5-Coder 代码模型',
  nameEn: 'Qwen2.5-Coder-7B-Instruct',
  tag: '7B',
  icon: null,
  time: 0,
  downloadCount: 0,
  description: '',
  descriptionEn: '',
  labelList: [],
  category: 'llm',
  filePath: 'markdown/models/qwen2.5-coder-7b.md',
};

describe('model usage snippet', () => {
  it('points at the model directory on shared storage', () => {
    expect(modelDirectory(model)).toBe('/public/models/qwen2.5-coder-7b');
    expect(modelUsage(model)).toBe(
      '# Qwen2.5-Coder-7B-Instruct (7B)\nls -lh /public/models/qwen2.5-coder-7b\ncp -r /public/models/qwen2.5-coder-7b ~/models/',
    );
  });

  it('prefers a storage path from the portal and falls back to the name', () => {
    expect(modelDirectory({ ...model, storagePath: '/data/m/q' })).toBe('/data/m/q');
    expect(modelDirectory({ ...model, filePath: null, nameEn: 'ResNet-50 (ImageNet)' })).toBe(
      '/public/models/resnet-50-imagenet',
    );
  });
});
