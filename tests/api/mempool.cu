// mempool.cu: memory pools of stream-ordered allocation beyond what
// devices_api checks (run with CUCC_DEVICES=3): cudaMallocFromPoolAsync and
// cudaMallocAsync counted in their pools, high-water marks and their reset,
// the release threshold and reuse policies, read-only access, a created
// pool made current and destroyed, CUDA 13's by-location forms, trimming;
// and graph allocations per device: cudaMallocAsync and
// cudaMallocFromPoolAsync in a capture become alloc nodes on the stream's
// or the pool's device, whose memory a kernel fills, each device counting
// its graph memory. Each answer is checked, the data against the CPU.
#include <cstdio>

static int bad = 0;
#define EXPECT(c)                                               \
  do {                                                          \
    if (!(c)) {                                                 \
      printf("%s:%d: expected %s\n", __FILE__, __LINE__, #c);   \
      bad++;                                                    \
    }                                                           \
  } while (0)
#define OK(x) EXPECT((x) == cudaSuccess)

__global__ void scale(const int *src, int *dst, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = k * src[i];
}

__global__ void iota(int *dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = 3 * i + 1;
}

int main() {
  int n = 0;
  OK(cudaGetDeviceCount(&n));
  if (n != 3) {
    printf("FAIL (run with CUCC_DEVICES=3)\n");
    return 1;
  }
  const int N = 4096;
  static int h[N];
  for (int i = 0; i < N; i++) h[i] = i * 7 - 3;

  // pools: cudaMallocAsync takes from the current pool of the stream's
  // device, cudaMallocFromPoolAsync from the one it names
  cudaMemPool_t pool1, pool2;
  OK(cudaDeviceGetDefaultMemPool(&pool1, 1));
  OK(cudaDeviceGetDefaultMemPool(&pool2, 2));
  EXPECT(pool1 != pool2);
  OK(cudaSetDevice(2));
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  int *a, *x, *y;
  OK(cudaMalloc(&a, N * sizeof(int)));
  OK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
  OK(cudaMallocAsync(&x, 1 << 20, s));
  unsigned long long used = 0, high = 0;
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used == 1 << 20);
  OK(cudaMallocFromPoolAsync(&y, 1 << 16, pool1, s));
  OK(cudaMemPoolGetAttribute(pool1, cudaMemPoolAttrReservedMemCurrent, &used));
  EXPECT(used == 1 << 16);
  cudaPointerAttributes pa;
  OK(cudaPointerGetAttributes(&pa, y));
  EXPECT(pa.device == 1 && pa.type == cudaMemoryTypeDevice);
  scale<<<(N + 255) / 256, 256, 0, s>>>(a, x, -1, N);
  OK(cudaMemcpyAsync(y, x, N * sizeof(int), cudaMemcpyDeviceToDevice, s));
  static int back[N];
  OK(cudaMemcpyAsync(back, y, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  OK(cudaFreeAsync(x, s));
  OK(cudaFreeAsync(y, s));
  OK(cudaStreamSynchronize(s));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += back[i] != -h[i];
  EXPECT(wrong == 0);
  // the high-water mark stays after the free, and is reset to what is used
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrUsedMemCurrent, &used));
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrUsedMemHigh, &high));
  EXPECT(used == 0 && high == 1 << 20);
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrReservedMemHigh, &high));
  EXPECT(high == 1 << 20);
  unsigned long long zero = 0, one = 1, thr = ~0ull, got = 0;
  OK(cudaMemPoolSetAttribute(pool2, cudaMemPoolAttrUsedMemHigh, &zero));
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrUsedMemHigh, &high));
  EXPECT(high == 0);
  EXPECT(cudaMemPoolSetAttribute(pool2, cudaMemPoolAttrUsedMemHigh, &one) == cudaErrorInvalidValue);
  EXPECT(cudaMemPoolSetAttribute(pool2, cudaMemPoolAttrUsedMemCurrent, &zero) == cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaMemPoolSetAttribute(pool1, cudaMemPoolAttrReleaseThreshold, &thr));
  OK(cudaMemPoolGetAttribute(pool1, cudaMemPoolAttrReleaseThreshold, &got));
  EXPECT(got == thr);
  int reuse = 0;
  OK(cudaMemPoolSetAttribute(pool1, cudaMemPoolReuseAllowOpportunistic, &reuse));
  reuse = 5;
  OK(cudaMemPoolGetAttribute(pool1, cudaMemPoolReuseAllowOpportunistic, &reuse));
  EXPECT(reuse == 0);
  OK(cudaMemPoolGetAttribute(pool1, cudaMemPoolReuseFollowEventDependencies, &reuse));
  EXPECT(reuse == 1);
  // read-only access for another device
  cudaMemAccessDesc desc = {};
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtRead;
  OK(cudaMemPoolSetAccess(pool1, &desc, 1));
  cudaMemAccessFlags f;
  cudaMemLocation l0 = {cudaMemLocationTypeDevice, 0}, l1 = {cudaMemLocationTypeDevice, 1},
                  l2 = {cudaMemLocationTypeDevice, 2}, l7 = {cudaMemLocationTypeDevice, 7};
  OK(cudaMemPoolGetAccess(&f, pool1, &l0));
  EXPECT(f == cudaMemAccessFlagsProtRead);
  OK(cudaMemPoolGetAccess(&f, pool1, &l1));
  EXPECT(f == cudaMemAccessFlagsProtReadWrite);
  OK(cudaMemPoolGetAccess(&f, pool1, &l2));
  EXPECT(f == cudaMemAccessFlagsProtNone);

  // a pool of our own (shareable by a file descriptor, as on Linux), made
  // current for device 2; destroying it makes the default current again
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 2;
  cudaMemPool_t mine, cur;
  OK(cudaMemPoolCreate(&mine, &props));
  OK(cudaDeviceSetMemPool(2, mine));
  OK(cudaDeviceGetMemPool(&cur, 2));
  EXPECT(cur == mine);
  EXPECT(cudaDeviceSetMemPool(1, mine) == cudaErrorInvalidValue);   // another device's pool
  cudaGetLastError();
  OK(cudaMallocAsync(&x, 1000, s));
  OK(cudaMemPoolGetAttribute(mine, cudaMemPoolAttrReservedMemCurrent, &used));
  EXPECT(used == 1000);
  OK(cudaMemPoolGetAttribute(pool2, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used == 0);
  OK(cudaFreeAsync(x, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaMemPoolTrimTo(mine, 0));
  OK(cudaMemPoolDestroy(mine));
  OK(cudaDeviceGetMemPool(&cur, 2));
  EXPECT(cur == pool2);
  EXPECT(cudaMemPoolDestroy(pool2) == cudaErrorInvalidValue);   // a default pool
  cudaGetLastError();

  // CUDA 13's forms, by location
  cudaMemPool_t viaLoc;
  OK(cudaMemGetDefaultMemPool(&viaLoc, &l2, cudaMemAllocationTypePinned));
  EXPECT(viaLoc == pool2);
  OK(cudaMemSetMemPool(&l1, cudaMemAllocationTypePinned, pool1));
  OK(cudaMemGetMemPool(&viaLoc, &l1, cudaMemAllocationTypePinned));
  EXPECT(viaLoc == pool1);
  EXPECT(cudaMemGetMemPool(&viaLoc, &l7, cudaMemAllocationTypePinned) == cudaErrorInvalidDevice);
  cudaMemLocation host = {cudaMemLocationTypeHost, 0};
  EXPECT(cudaMemGetDefaultMemPool(&viaLoc, &host, cudaMemAllocationTypePinned) == cudaErrorNotSupported);
  cudaGetLastError();
  OK(cudaMemPoolTrimTo(pool2, 0));

  // graph allocations: captured on device 2's stream, one from its own
  // current pool and one from device 1's pool
  cudaGraph_t g;
  int *ga, *gb;
  OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(cudaMallocAsync(&ga, N * sizeof(int), s));
  OK(cudaMallocFromPoolAsync(&gb, N * sizeof(int), pool1, s));
  iota<<<(N + 255) / 256, 256, 0, s>>>(ga, N);
  scale<<<(N + 255) / 256, 256, 0, s>>>(ga, gb, 2, N);
  OK(cudaMemcpyAsync(back, gb, N * sizeof(int), cudaMemcpyDeviceToHost, s));
  OK(cudaFreeAsync(ga, s));
  OK(cudaStreamEndCapture(s, &g));
  size_t nn = 0;
  OK(cudaGraphGetNodes(g, nullptr, &nn));
  EXPECT(nn == 6);
  cudaGraphNode_t nodes[8];
  nn = 8;
  OK(cudaGraphGetNodes(g, nodes, &nn));
  int allocs = 0;
  for (size_t i = 0; i < nn; i++) {
    cudaGraphNodeType t;
    OK(cudaGraphNodeGetType(nodes[i], &t));
    if (t != cudaGraphNodeTypeMemAlloc) continue;
    cudaMemAllocNodeParams mp;
    OK(cudaGraphMemAllocNodeGetParams(nodes[i], &mp));
    EXPECT(mp.bytesize == N * sizeof(int) && mp.poolProps.location.type == cudaMemLocationTypeDevice);
    EXPECT(mp.dptr == ga ? mp.poolProps.location.id == 2 : mp.dptr == gb && mp.poolProps.location.id == 1);
    allocs++;
  }
  EXPECT(allocs == 2);
  OK(cudaPointerGetAttributes(&pa, gb));
  EXPECT(pa.type == cudaMemoryTypeDevice && pa.device == 1 && pa.hostPointer == nullptr);
  cudaGraphExec_t ge;
  OK(cudaGraphInstantiate(&ge, g, 0));
  OK(cudaGraphLaunch(ge, s));
  OK(cudaStreamSynchronize(s));
  wrong = 0;
  for (int i = 0; i < N; i++) wrong += back[i] != 2 * (3 * i + 1);
  EXPECT(wrong == 0);
  // gb is still allocated, on device 1: its graph memory counts there
  unsigned long long g0 = 1, g1 = 0, g2 = 0;
  OK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &g0));
  OK(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &g1));
  OK(cudaDeviceGetGraphMemAttribute(2, cudaGraphMemAttrUsedMemHigh, &g2));
  EXPECT(g0 == 0 && g1 >= N * sizeof(int) && g2 >= N * sizeof(int));
  EXPECT(cudaDeviceGetGraphMemAttribute(3, cudaGraphMemAttrUsedMemCurrent, &g0) == cudaErrorInvalidDevice);
  cudaGetLastError();
  OK(cudaFreeAsync(gb, s));
  OK(cudaStreamSynchronize(s));
  OK(cudaDeviceGraphMemTrim(1));
  OK(cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrReservedMemCurrent, &g1));
  EXPECT(g1 == 0);

  OK(cudaGraphExecDestroy(ge));
  OK(cudaGraphDestroy(g));
  OK(cudaStreamDestroy(s));
  OK(cudaFree(a));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
