import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { ServerKitText } from './messages';

describe('server kit messages', () => {
  it('are complete in both languages', () => expectBilingual(ServerKitText));
});
