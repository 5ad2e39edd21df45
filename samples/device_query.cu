// device_query.cu: prints the modelled device the way NVIDIA's deviceQuery
// sample does (the lecture notes show its output for an RTX 2070); installed
// as cucc-devicequery. Try: CUCC_DEVICE=sm_90 ./device_query, or build with
// -arch=sm_12. Clock rates come from cudaDeviceGetAttribute, which CUDA 13
// keeps (its cudaDeviceProp has no clockRate). `device_query attrs` prints
// `ATTR name value` for the attributes deviceQuery does not show (texture
// and surface limits): built by nvcc on a GPU, it records them.
#include <cstdio>
#include <cstring>

static int attr(cudaDeviceAttr a, int d) {
  int v = 0;
  cudaDeviceGetAttribute(&v, a, d);
  return v;
}

// CUDA cores per SM by compute capability (NVIDIA's published figures)
static int cores_per_sm(int major, int minor) {
  switch (major * 10 + minor) {
  case 10: case 11: case 12: case 13: return 8;
  case 20: return 32;
  case 21: return 48;
  case 30: case 32: case 35: case 37: return 192;
  case 50: case 52: case 53: return 128;
  case 60: return 64;
  case 61: case 62: return 128;
  case 70: case 72: case 75: return 64;
  case 80: return 64;
  default: return 128;   // 8.6 and later
  }
}

#define A(n) {cudaDevAttr##n, #n}
static const struct { cudaDeviceAttr a; const char *name; } attrs[] = {
  A(ClockRate), A(MemoryClockRate), A(GlobalMemoryBusWidth), A(L2CacheSize), A(AsyncEngineCount),
  A(EccEnabled), A(GpuOverlap), A(TextureAlignment), A(TexturePitchAlignment), A(SurfaceAlignment),
  A(MaxTexture1DWidth), A(MaxTexture1DMipmappedWidth), A(MaxTexture1DLinearWidth), A(MaxTexture2DWidth),
  A(MaxTexture2DHeight), A(MaxTexture2DMipmappedWidth), A(MaxTexture2DMipmappedHeight),
  A(MaxTexture2DLinearWidth), A(MaxTexture2DLinearHeight), A(MaxTexture2DLinearPitch),
  A(MaxTexture2DGatherWidth), A(MaxTexture2DGatherHeight), A(MaxTexture3DWidth), A(MaxTexture3DHeight),
  A(MaxTexture3DDepth), A(MaxTexture3DWidthAlt), A(MaxTexture3DHeightAlt), A(MaxTexture3DDepthAlt),
  A(MaxTextureCubemapWidth), A(MaxTexture1DLayeredWidth), A(MaxTexture1DLayeredLayers),
  A(MaxTexture2DLayeredWidth), A(MaxTexture2DLayeredHeight), A(MaxTexture2DLayeredLayers),
  A(MaxTextureCubemapLayeredWidth), A(MaxTextureCubemapLayeredLayers), A(MaxSurface1DWidth),
  A(MaxSurface2DWidth), A(MaxSurface2DHeight), A(MaxSurface3DWidth), A(MaxSurface3DHeight),
  A(MaxSurface3DDepth), A(MaxSurface1DLayeredWidth), A(MaxSurface1DLayeredLayers), A(MaxSurface2DLayeredWidth),
  A(MaxSurface2DLayeredHeight), A(MaxSurface2DLayeredLayers), A(MaxSurfaceCubemapWidth),
  A(MaxSurfaceCubemapLayeredWidth), A(MaxSurfaceCubemapLayeredLayers), A(HostRegisterReadOnlySupported),
  A(ClusterLaunch), A(MemoryPoolsSupported),
};

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "attrs")) {
    for (auto &a : attrs) {
      int v = 0;
      cudaError_t e = cudaDeviceGetAttribute(&v, a.a, 0);
      printf("ATTR %s %d%s%s\n", a.name, v, e ? " " : "", e ? cudaGetErrorName(e) : "");
    }
    return 0;
  }
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
    int cores = cores_per_sm(p.major, p.minor), clock = attr(cudaDevAttrClockRate, d);
    printf("\nDevice %d: \"%s\"\n", d, p.name);
    printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", drv / 1000, (drv % 100) / 10, rt / 1000, (rt % 100) / 10);
    printf("  CUDA Capability Major/Minor version number:    %d.%d\n", p.major, p.minor);
    printf("  Total amount of global memory:                 %.0f MBytes (%zu bytes)\n", p.totalGlobalMem / 1048576.0, p.totalGlobalMem);
    printf("  (%3d) Multiprocessors, (%3d) CUDA Cores/MP:    %d CUDA Cores\n", p.multiProcessorCount, cores, cores * p.multiProcessorCount);
    printf("  GPU Max Clock rate:                            %.0f MHz (%0.2f GHz)\n", clock * 1e-3, clock * 1e-6);
    printf("  Memory Clock rate:                             %.0f Mhz\n", attr(cudaDevAttrMemoryClockRate, d) * 1e-3);
    printf("  Memory Bus Width:                              %d-bit\n", p.memoryBusWidth);
    if (p.l2CacheSize) printf("  L2 Cache Size:                                 %d bytes\n", p.l2CacheSize);
    printf("  Maximum Texture Dimension Size (x,y,z)         1D=(%d), 2D=(%d, %d), 3D=(%d, %d, %d)\n", p.maxTexture1D,
           p.maxTexture2D[0], p.maxTexture2D[1], p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2]);
    printf("  Maximum Layered 1D Texture Size, (num) layers  1D=(%d), %d layers\n", p.maxTexture1DLayered[0], p.maxTexture1DLayered[1]);
    printf("  Maximum Layered 2D Texture Size, (num) layers  2D=(%d, %d), %d layers\n", p.maxTexture2DLayered[0],
           p.maxTexture2DLayered[1], p.maxTexture2DLayered[2]);
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
    printf("  Texture alignment:                             %zu bytes\n", p.textureAlignment);
    printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
           attr(cudaDevAttrGpuOverlap, d) ? "Yes" : "No", p.asyncEngineCount);
    printf("  Run time limit on kernels:                     %s\n", attr(cudaDevAttrKernelExecTimeout, d) ? "Yes" : "No");
    printf("  Integrated GPU sharing Host Memory:            %s\n", p.integrated ? "Yes" : "No");
    printf("  Support host page-locked memory mapping:       %s\n", p.canMapHostMemory ? "Yes" : "No");
    printf("  Alignment requirement for Surfaces:            %s\n", p.surfaceAlignment ? "Yes" : "No");
    printf("  Device has ECC support:                        %s\n", p.ECCEnabled ? "Enabled" : "Disabled");
    printf("  Concurrent kernel execution:                   %s\n", p.concurrentKernels ? "Yes" : "No");
    printf("  Device supports Unified Addressing (UVA):      %s\n", p.unifiedAddressing ? "Yes" : "No");
    printf("  Device supports Managed Memory:                %s\n", p.managedMemory ? "Yes" : "No");
    printf("  Device supports Compute Preemption:            %s\n", p.computePreemptionSupported ? "Yes" : "No");
    printf("  Supports Cooperative Kernel Launch:            %s\n", p.cooperativeLaunch ? "Yes" : "No");
    printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", p.pciDomainID, p.pciBusID, p.pciDeviceID);
    // the attributes and the properties must agree
    struct { cudaDeviceAttr a; int v; const char *what; } same[] = {
      {cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "multiProcessorCount"},
      {cudaDevAttrMaxTexture1DWidth, p.maxTexture1D, "maxTexture1D"},
      {cudaDevAttrMaxTexture2DLayeredLayers, p.maxTexture2DLayered[2], "maxTexture2DLayered[2]"},
      {cudaDevAttrSurfaceAlignment, (int)p.surfaceAlignment, "surfaceAlignment"},
      {cudaDevAttrL2CacheSize, p.l2CacheSize, "l2CacheSize"},
      {cudaDevAttrEccEnabled, p.ECCEnabled, "ECCEnabled"},
    };
    for (auto &s : same)
      if (attr(s.a, d) != s.v) { printf("attribute and property %s disagree\nFAIL\n", s.what); return 1; }
  }
  printf("\nResult = PASS\n");
  return 0;
}
