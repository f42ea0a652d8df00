import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client';

/** The detail route of an image; names like `pytorch/pytorch:2.4` need their slash encoded. */
export const imagePath = (acceleratorType: string, imageName: string, hash = '') =>
  `/image/${encodeURIComponent(acceleratorType)}/${encodeURIComponent(imageName)}${hash}`;
export const modelPath = (id: number, hash = '') => `/model-zoo/${id}${hash}`;
export const appPath = (id: number) => `/full-site/${id}`;

/** Where the image created at `createTime` lives (spec §2 in-text links `/image/{creation time in ms}#anchor`). */
export const descPathByTime = (createTime: number) =>
  queryOptions({
    queryKey: ['images', 'descPath', createTime],
    queryFn: ({ signal }) => api.images.descPath({ createTime }, { signal }),
    staleTime: Infinity,
  });
