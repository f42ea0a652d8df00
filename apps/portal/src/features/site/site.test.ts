import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@hpc/server-kit/testing';
import { buildPortal } from '../../app';
import { readPortalConfig } from '../../config';

describe('GET /api/site/config', () => {
  const tmp = makeTempDir();
  afterAll(() => tmp.cleanup());

  it('answers the configured registration number to anyone', async () => {
    const config = readPortalConfig({
      DATA_DIR: tmp.dir,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      SITE_ICP: '皖ICP备12345678号',
    });
    const { app } = await buildPortal(config);
    const r = await app.inject({ method: 'GET', url: '/api/site/config' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      code: '0',
      msg: 'success',
      data: { icp: '皖ICP备12345678号', icpUrl: 'https://beian.miit.gov.cn/' },
    });
    await app.close();
  });
});
