import { expect, it } from 'vitest';
import { isDisabledCluster, nameSaysDisabled, sortClusters } from './cluster-sort';

const c = (centerName: string, disabled = false, centerNameEn = '') => ({
  centerName,
  centerNameEn,
  disabled,
});

it('recognises a disabled centre by its flag or by the word in its name', () => {
  expect(isDisabledCluster(c('无锡中心（停用）'))).toBe(true);
  expect(isDisabledCluster(c('Wuxi', false, 'Wuxi (disabled)'))).toBe(true);
  expect(isDisabledCluster(c('合肥', true))).toBe(true);
  expect(isDisabledCluster(c('合肥先进计算中心'))).toBe(false);
});

it('puts disabled centres last and keeps the order of the rest', () => {
  const sorted = sortClusters([c('无锡中心（停用）'), c('合肥'), c('昆山'), c('旧中心', true)]);
  expect(sorted.map((x) => x.centerName)).toEqual(['合肥', '昆山', '无锡中心（停用）', '旧中心']);
});

it('tells whether a name already says disabled', () => {
  expect(nameSaysDisabled('无锡中心（停用）')).toBe(true);
  expect(nameSaysDisabled('Wuxi Center (disabled)')).toBe(true);
  expect(nameSaysDisabled('昆山超算中心')).toBe(false);
});
