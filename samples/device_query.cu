// device_query.cu: prints the modelled device the way NVIDIA's deviceQuery
// sample does (the lecture notes show its output for an RTX 2070).
// Try: CUCC_DEVICE=sm_90 ./device_query, or build with -arch=sm_12.
#include <cstdio>

int main() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) { printf("cudaGetDeviceCount: %s\nFAIL\n", cudaGetErrorString(e)); return 1; }
  printf("Detected %d CUDA Capable device(s)\n", count);
  for (int d = 0; d < count; d++) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, d);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("\nDevice %d: \"%s\"\n", d, p.name);
    printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", drv / 1000, (drv % 100) / 10, rt / 1000, (rt % 100) / 10);
    printf("  CUDA Capability Major/Minor version number:    %d.%d\n", p.major, p.minor);
    printf("  Total amount of global memory:                 %.0f MBytes (%zu bytes)\n", p.totalGlobalMem / 1048576.0, p.totalGlobalMem);
    printf("  (%3d) Multiprocessors\n", p.multiProcessorCount);
    printf("  Total amount of constant memory:               %zu bytes\n", p.totalConstMem);
    printf("  Total amount of shared memory per block:       %zu bytes\n", p.sharedMemPerBlock);
    printf("  Total shared memory per multiprocessor:        %zu bytes\n", p.sharedMemPerMultiprocessor);
    printf("  Total number of registers available per block: %d\n", p.regsPerBlock);
    printf("  Total number of registers per multiprocessor:  %d\n", p.regsPerMultiprocessor);
    printf("  Warp size:                                     %d\n", p.warpSize);
    printf("  Maximum number of threads per multiprocessor:  %d\n", p.maxThreadsPerMultiProcessor);
    printf("  Maximum number of blocks per multiprocessor:   %d\n", p.maxBlocksPerMultiProcessor);
    printf("  Maximum number of threads per block:           %d\n", p.maxThreadsPerBlock);
    printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
    printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("  Maximum memory pitch:                          %zu bytes\n", p.memPitch);
    printf("  Concurrent kernel execution:                   %s\n", p.concurrentKernels ? "Yes" : "No");
    printf("  Device supports Unified Addressing (UVA):      %s\n", p.unifiedAddressing ? "Yes" : "No");
    printf("  Device supports Managed Memory:                %s\n", p.managedMemory ? "Yes" : "No");
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, d);
    if (v != p.multiProcessorCount) { printf("attribute and property disagree\nFAIL\n"); return 1; }
  }
  printf("\nResult = PASS\n");
  return 0;
}
