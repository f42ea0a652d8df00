import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { FastransText } from './messages';

describe('fast-transfer client messages', () => {
  it('are complete in both languages', () => expectBilingual(FastransText));
});
