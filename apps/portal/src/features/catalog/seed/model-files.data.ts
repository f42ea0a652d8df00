/**
 * Real, small files for a few demo models, so that the model zoo's file view, downloads and "copy to my E-File"
 * can be tried: configs as the real models ship them, and weights in the safetensors layout (an 8-byte header
 * length, a JSON header, then the tensors) with deterministic filler bytes instead of trained values.
 */

/** xorshift32: the same bytes on every start, so the sha256 of a demo file never changes. */
function filler(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i += 4) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out.writeUInt32LE(x, i);
  }
  return out;
}

/** A safetensors file of BF16 tensors with the given shapes. */
function safetensors(tensors: Record<string, [number, number]>, seed: number): Buffer {
  const header: Record<string, unknown> = {
    __metadata__: { format: 'pt', note: 'demo weights, not trained' },
  };
  let offset = 0;
  for (const [name, shape] of Object.entries(tensors)) {
    const size = shape[0] * shape[1] * 2;
    header[name] = { dtype: 'BF16', shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([len, Buffer.from(json), filler(offset, seed)]);
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

const APACHE =
  'Apache License, Version 2.0 (demo excerpt)\n\nLicensed under the Apache License, Version 2.0 (the "License");\n' +
  'you may not use these files except in compliance with the License. You may obtain a copy of the License at\n\n' +
  '    http://www.apache.org/licenses/LICENSE-2.0\n';
const MIT =
  'MIT License (demo excerpt)\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this\n' +
  'software, to deal in the Software without restriction.\n';

/** `README` is the model's description (its markdown file), added by the seed. */
export interface DemoModelFiles {
  /** The demo model, by its English name. */
  nameEn: string;
  /** Folder under the catalogue storage. */
  dir: string;
  files: Record<string, string | Buffer>;
}

export function demoModelFiles(): DemoModelFiles[] {
  return [
    {
      nameEn: 'Qwen2.5-7B-Instruct',
      dir: 'model-files/qwen2.5-7b-instruct',
      files: {
        LICENSE: APACHE,
        'config.json': json({
          architectures: ['Qwen2ForCausalLM'],
          hidden_size: 3584,
          intermediate_size: 18944,
          max_position_embeddings: 32768,
          model_type: 'qwen2',
          num_attention_heads: 28,
          num_hidden_layers: 28,
          num_key_value_heads: 4,
          rope_theta: 1000000.0,
          torch_dtype: 'bfloat16',
          vocab_size: 152064,
        }),
        'generation_config.json': json({ do_sample: true, temperature: 0.7, top_p: 0.8, top_k: 20 }),
        'tokenizer_config.json': json({ model_max_length: 131072, tokenizer_class: 'Qwen2Tokenizer' }),
        'model-00001-of-00002.safetensors': safetensors(
          { 'model.embed_tokens.weight': [512, 1024], 'model.layers.0.mlp.up_proj.weight': [256, 1024] },
          7,
        ),
        'model-00002-of-00002.safetensors': safetensors({ 'lm_head.weight': [512, 1024] }, 11),
        'model.safetensors.index.json': json({
          metadata: { total_size: 3145728 },
          weight_map: {
            'model.embed_tokens.weight': 'model-00001-of-00002.safetensors',
            'model.layers.0.mlp.up_proj.weight': 'model-00001-of-00002.safetensors',
            'lm_head.weight': 'model-00002-of-00002.safetensors',
          },
        }),
        'examples/chat.py':
          '"""Chat with the model served by vLLM (OpenAI-compatible API)."""\nfrom openai import OpenAI\n\n' +
          'client = OpenAI(base_url="http://localhost:8000/v1", api_key="none")\n' +
          'reply = client.chat.completions.create(model="qwen2.5-7b", messages=[{"role": "user", "content": "你好"}])\n' +
          'print(reply.choices[0].message.content)\n',
        'examples/serve.slurm':
          '#!/bin/bash\n#SBATCH -p gpu\n#SBATCH --gres=gpu:1\n\n' +
          'vllm serve "$(dirname "$0")/.." --served-model-name qwen2.5-7b --max-model-len 32768 --port 8000\n',
      },
    },
    {
      nameEn: 'DeepSeek-R1-Distill-Qwen-7B',
      dir: 'model-files/deepseek-r1-distill-qwen-7b',
      files: {
        LICENSE: MIT,
        'config.json': json({
          architectures: ['Qwen2ForCausalLM'],
          hidden_size: 3584,
          model_type: 'qwen2',
          num_hidden_layers: 28,
          torch_dtype: 'bfloat16',
          vocab_size: 152064,
        }),
        'generation_config.json': json({ do_sample: true, temperature: 0.6, top_p: 0.95 }),
        'model.safetensors': safetensors({ 'lm_head.weight': [256, 1024] }, 23),
      },
    },
    {
      nameEn: 'BERT-base-Chinese',
      dir: 'model-files/bert-base-chinese',
      files: {
        LICENSE: APACHE,
        'config.json': json({
          architectures: ['BertForMaskedLM'],
          hidden_size: 768,
          model_type: 'bert',
          num_attention_heads: 12,
          num_hidden_layers: 12,
          vocab_size: 21128,
        }),
        'vocab.txt':
          ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', '的', '一', '是', '在', '不', '了', '有'].join(
            '\n',
          ) + '\n',
        'model.safetensors': safetensors({ 'bert.embeddings.word_embeddings.weight': [128, 768] }, 31),
      },
    },
  ];
}
