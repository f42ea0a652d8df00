import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { PortalText } from './messages';

describe('portal messages', () => {
  it('are complete in both languages', () => expectBilingual(PortalText));
});
