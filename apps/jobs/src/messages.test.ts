import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { JobsText } from './messages';

describe('job service messages', () => {
  it('are complete in both languages', () => expectBilingual(JobsText));
});
