import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { EfileText } from './messages';

describe('efile messages', () => {
  it('are complete in both languages', () => expectBilingual(EfileText));
});
