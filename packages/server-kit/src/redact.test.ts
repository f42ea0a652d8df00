import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('replaces credential parameters and Linux-command path tokens, keeps the rest', () => {
    expect(redactUrl('/efile/1/download.action?path=%2Fa&token=eyJ.x.y')).toBe(
      '/efile/1/download.action?path=%2Fa&token=[redacted]',
    );
    expect(redactUrl('/d?ticket=T&shareToken=S&password=P&downKey=K&x=1')).toBe(
      '/d?ticket=[redacted]&shareToken=[redacted]&password=[redacted]&downKey=[redacted]&x=1',
    );
    expect(redactUrl('/api/auth/oidc/callback?code=C&state=S')).toBe(
      '/api/auth/oidc/callback?code=[redacted]&state=[redacted]',
    );
    expect(redactUrl('/efile/1/linux/put/abcDEF_123/name.txt?overwrite=true')).toBe(
      '/efile/1/linux/put/[redacted]/name.txt?overwrite=true',
    );
    expect(redactUrl('/linux/tar/abc')).toBe('/linux/tar/[redacted]');
    expect(redactUrl('/linux/get/abc?x')).toBe('/linux/get/[redacted]?x');
    expect(redactUrl('/d?%74oken=T&TOKEN=U&token[]=V&bad=%E0%A4%A')).toBe(
      '/d?%74oken=[redacted]&TOKEN=[redacted]&token[]=[redacted]&bad=%E0%A4%A',
    );
    expect(redactUrl('/list.action?path=/a')).toBe('/list.action?path=/a');
  });
});
