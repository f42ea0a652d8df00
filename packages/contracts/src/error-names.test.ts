import { describe, expect, it } from 'vitest';
import { CommonCodes, EshellCodes, FileCodes, JobCodes, PortalCodes, ShareCodes } from './error-names';
import { ErrorCodes } from './errors';

describe('error code names', () => {
  it('name every code of the registry at least once, and only codes of the registry', () => {
    const named = new Set<string>(
      [CommonCodes, FileCodes, ShareCodes, PortalCodes, JobCodes, EshellCodes].flatMap((group) =>
        Object.values(group),
      ),
    );
    expect([...named].sort()).toEqual(Object.keys(ErrorCodes).sort());
  });
});
