/** The one errno helper lives with the path resolver in the cluster kit; efile's fs modules take it from here. */
export { errno } from '@hpc/cluster-kit';
