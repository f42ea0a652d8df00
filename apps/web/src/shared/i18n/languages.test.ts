import { describe, expect, it } from 'vitest';
import { labelCompare } from './languages';

describe('labelCompare: the one order of labels (issue 25 §3.6)', () => {
  it('sorts Latin and Han labels together, a Han character by its pinyin, in Chinese', () => {
    const framework = ['昇思', 'PyTorch', '飞桨', 'JAX', 'TensorFlow', 'MindSpore'];
    // ICU's pinyin collation alone puts the Han labels first: the bug.
    expect([...framework].sort(new Intl.Collator('zh-CN-u-co-pinyin').compare).slice(0, 2)).toEqual([
      '飞桨',
      '昇思',
    ]);
    // fei < jax < mindspore < pytorch < sheng < tensorflow
    expect([...framework].sort(labelCompare('zh-CN'))).toEqual([
      '飞桨',
      'JAX',
      'MindSpore',
      'PyTorch',
      '昇思',
      'TensorFlow',
    ]);
    expect(['自然语言处理', '大模型', 'CUDA', '深度学习', 'BERT'].sort(labelCompare('zh-CN'))).toEqual([
      'BERT',
      'CUDA',
      '大模型',
      '深度学习',
      '自然语言处理',
    ]);
  });

  it('sorts alphabetically in English, case aside and numbers by value', () => {
    expect(['vLLM', 'cuda 12', 'CUDA 11', 'Bert', 'cuda 2'].sort(labelCompare('en-US'))).toEqual([
      'Bert',
      'cuda 2',
      'CUDA 11',
      'cuda 12',
      'vLLM',
    ]);
  });
});
