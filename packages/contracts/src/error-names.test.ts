import { describe, expect, it } from 'vitest';
import { CommonCodes, FileCodes, JobCodes, PortalCodes, ShareCodes } from './error-names';
import { ErrorCodes } from './errors';

describe('error code names', () => {
  it('name every code of the registry at least once, and only codes of the registry', () => {
    const named = new Set<string>(
      [CommonCodes, FileCodes, ShareCodes, PortalCodes, JobCodes].flatMap((group) => Object.values(group)),
    );
    expect([...named].sort()).toEqual(Object.keys(ErrorCodes).sort());
  });
});
