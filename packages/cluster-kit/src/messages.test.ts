import { describe, it } from 'vitest';
import { expectBilingual } from '../../../test-support/bilingual';
import { ClusterKitText } from './messages';

describe('cluster kit messages', () => {
  it('are complete in both languages', () => expectBilingual(ClusterKitText));
});
