// api.cu: several simulated devices as CUDA specifies them (run with
// CUCC_DEVICES=4 CUCC_DEVICE=sm_90,sm_80:mem=64): their count and models,
// the current device of each host thread, each device's own memory, peer
// access and its errors, kernels and copies across devices, streams and
// events that belong to a device (a launch into another device's stream
// and a record into another device's stream fail; waits across devices
// order work), an error sticky to one device only, cudaDeviceReset of one
// device, memory pools with peer access, and a __constant__ given other
// contents on another device (one copy for all devices: said once).
// Ordering is made observable with host functions that wait on gates the
// main thread opens.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#include <cassert>
#include <cuda_runtime.h>

static int bad = 0;
#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond) do { if (!(cond)) { printf("%s:%d: expected %s\n", __FILE__, __LINE__, #cond); bad++; } } while (0)
#define EXPECT_ERR(call, err) do { cudaError_t e_ = (call); if (e_ != (err)) { \
  printf("%s:%d: %s gave %s, want %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_), #err); bad++; } \
  (void)cudaGetLastError(); } while (0)

__constant__ int coef[4];

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
__global__ void twice_from(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = 2 * src[i];
}
__global__ void checked(const int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(p[i] >= 0);
}
// a block sum through shared memory (a kernel with a barrier)
__global__ void bsum(const int *p, long long *out, int n) {
  __shared__ long long s[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  s[t] = i < n ? p[i] : 0;
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) atomicAdd((unsigned long long *)out, (unsigned long long)s[0]);
}

struct Gate { std::atomic<int> open{0}; };
static void CUDART_CB wait_gate(void *p) {
  Gate *g = (Gate *)p;
  for (int i = 0; i < 20000 && !g->open.load(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

static int *on(int dev, size_t n) {
  int *p = nullptr;
  CHECK(cudaSetDevice(dev));
  CHECK(cudaMalloc(&p, n * sizeof(int)));
  return p;
}

int main() {
  const int N = 1 << 16, T = 256, B = (N + T - 1) / T;
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  EXPECT(n == 4);
  if (n < 4) {
    printf("FAIL: %d devices (run with CUCC_DEVICES=4)\n", n);
    return 1;
  }

  // models: device 0 an sm_90, the others the last spec, sm_80 with 64 MiB
  cudaDeviceProp p0, p1;
  CHECK(cudaGetDeviceProperties(&p0, 0));
  CHECK(cudaGetDeviceProperties(&p1, 3));
  EXPECT(p0.major == 9 && p0.minor == 0 && p1.major == 8 && p1.minor == 0);
  EXPECT(p1.totalGlobalMem == (size_t)64 << 20);
  EXPECT(p0.pciBusID != p1.pciBusID && p0.unifiedAddressing == 1);
  int v = 0;
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 2));
  EXPECT(v == 8);
  EXPECT_ERR(cudaGetDeviceProperties(&p0, 4), cudaErrorInvalidDevice);
  cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  want.major = 8;
  CHECK(cudaChooseDevice(&v, &want));
  EXPECT(v == 1);

  // the current device: per host thread, 0 until set
  int d = -1;
  EXPECT_ERR(cudaSetDevice(4), cudaErrorInvalidDevice);
  CHECK(cudaGetDevice(&d));
  EXPECT(d == 0);
  CHECK(cudaSetDevice(2));
  int other = -1, other_after = -1;
  std::thread t([&] {
    cudaGetDevice(&other);
    cudaSetDevice(3);
    cudaGetDevice(&other_after);
  });
  t.join();
  CHECK(cudaGetDevice(&d));
  EXPECT(other == 0 && other_after == 3 && d == 2);

  // each device's own memory: 64 MiB on device 1, counted apart from 2's
  size_t fr = 0, tot = 0, fr2 = 0;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&a, 40 << 20));
  CHECK(cudaMemGetInfo(&fr, &tot));
  EXPECT(tot == (size_t)64 << 20 && fr == (size_t)24 << 20);
  EXPECT_ERR(cudaMalloc(&b, 40 << 20), cudaErrorMemoryAllocation);
  CHECK(cudaSetDevice(2));
  CHECK(cudaMalloc(&c, 40 << 20));
  CHECK(cudaMemGetInfo(&fr2, &tot));
  EXPECT(fr2 == (size_t)24 << 20);
  CHECK(cudaFree(a));   // freed with another device current: still device 1's memory
  CHECK(cudaSetDevice(1));
  CHECK(cudaMemGetInfo(&fr, &tot));
  EXPECT(fr == (size_t)64 << 20);
  cudaPointerAttributes at;
  CHECK(cudaPointerGetAttributes(&at, c));
  EXPECT(at.device == 2 && at.type == cudaMemoryTypeDevice);
  CHECK(cudaFree(c));

  // peers: every other device, never itself; CUDA's errors
  CHECK(cudaDeviceCanAccessPeer(&v, 0, 1));
  EXPECT(v == 1);
  CHECK(cudaDeviceCanAccessPeer(&v, 1, 1));
  EXPECT(v == 0);
  EXPECT_ERR(cudaDeviceCanAccessPeer(&v, 0, 9), cudaErrorInvalidDevice);
  CHECK(cudaSetDevice(1));
  CHECK(cudaDeviceEnablePeerAccess(0, 0));
  EXPECT_ERR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessAlreadyEnabled);
  EXPECT_ERR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessUnsupported);
  EXPECT_ERR(cudaDeviceEnablePeerAccess(7, 0), cudaErrorInvalidDevice);
  EXPECT_ERR(cudaDeviceDisablePeerAccess(2), cudaErrorPeerAccessNotEnabled);
  CHECK(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 1, 0));
  EXPECT(v == 1);

  // a kernel on device 1 reads device 0's memory; copies between devices
  std::vector<int> h(N), g(N);
  int *x0 = on(0, N), *y1 = on(1, N), *z3 = on(3, N);
  CHECK(cudaSetDevice(0));
  fill<<<B, T>>>(x0, N, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaSetDevice(1));
  twice_from<<<B, T>>>(y1, x0, N);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), y1, N * sizeof(int), cudaMemcpyDeviceToHost));
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= h[i] == 2 * (7 + i);
  EXPECT(ok);
  CHECK(cudaMemcpyPeer(z3, 3, y1, 1, N * sizeof(int)));
  CHECK(cudaMemcpy(g.data(), z3, N * sizeof(int), cudaMemcpyDefault));   // unified addressing
  EXPECT(g == h);
  EXPECT_ERR(cudaMemcpyPeer(z3, 5, y1, 1, 4), cudaErrorInvalidDevice);

  // streams and events belong to a device
  cudaStream_t s0, s1;
  cudaEvent_t e0, e1;
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaStreamGetDevice(s0, &v));
  EXPECT(v == 0);
  fill<<<B, T, 0, s0>>>(x0, N, 1);   // device 1 is current: s0 is device 0's
  EXPECT_ERR(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaEventRecord(e0, s1), cudaErrorInvalidResourceHandle);
  EXPECT_ERR(cudaEventRecord(e1, 0), cudaSuccess);
  CHECK(cudaMemcpyAsync(g.data(), y1, 16, cudaMemcpyDeviceToHost, s0));   // a copy may use any device's stream
  CHECK(cudaStreamSynchronize(s0));

  // a stream of device 1 waits for an event of device 0: the fill behind
  // the gate comes first
  Gate gate;
  CHECK(cudaSetDevice(0));
  CHECK(cudaLaunchHostFunc(s0, wait_gate, &gate));
  fill<<<B, T, 0, s0>>>(x0, N, 100);
  CHECK(cudaEventRecord(e0, s0));
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamWaitEvent(s1, e0, 0));
  twice_from<<<B, T, 0, s1>>>(y1, x0, N);
  CHECK(cudaEventRecord(e1, s1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT(cudaEventQuery(e1) == cudaErrorNotReady);
  gate.open = 1;
  CHECK(cudaEventSynchronize(e1));   // (another device's event: any thread may wait)
  CHECK(cudaMemcpy(h.data(), y1, N * sizeof(int), cudaMemcpyDeviceToHost));
  ok = 1;
  for (int i = 0; i < N; i++) ok &= h[i] == 2 * (100 + i);
  EXPECT(ok);
  float ms = 0;
  EXPECT_ERR(cudaEventElapsedTime(&ms, e0, e1), cudaErrorInvalidResourceHandle);
  CHECK(cudaMemcpyPeerAsync(z3, 3, y1, 1, N * sizeof(int), s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaMemcpy(g.data(), z3, N * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(g == h);

  // a failed kernel is device 3's only
  CHECK(cudaSetDevice(3));
  CHECK(cudaMemset(z3, 0xff, N * sizeof(int)));
  checked<<<B, T>>>(z3, N);
  EXPECT_ERR(cudaDeviceSynchronize(), cudaErrorAssert);
  CHECK(cudaSetDevice(2));
  CHECK(cudaDeviceSynchronize());
  int *w2 = on(2, N);
  fill<<<B, T>>>(w2, N, 3);
  CHECK(cudaMemcpy(h.data(), w2, N * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h[N - 1] == 3 + N - 1);

  // cudaDeviceReset: device 2's memory is gone, device 1's is not
  CHECK(cudaDeviceReset());
  EXPECT_ERR(cudaFree(w2), cudaErrorInvalidValue);
  CHECK(cudaSetDevice(3));
  CHECK(cudaDeviceReset());   // (and its error)
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(1));
  CHECK(cudaFree(y1));

  // a pool of device 0 made accessible to device 1
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  cudaMemAccessDesc desc;
  memset(&desc, 0, sizeof desc);
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 1;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &desc, 1));
  cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = {cudaMemLocationTypeDevice, 1};
  CHECK(cudaMemPoolGetAccess(&fl, pool, &loc));
  EXPECT(fl == cudaMemAccessFlagsProtReadWrite);
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtNone;
  EXPECT_ERR(cudaMemPoolSetAccess(pool, &desc, 1), cudaErrorInvalidValue);
  CHECK(cudaSetDevice(0));
  int *pa = nullptr;
  CHECK(cudaMallocAsync(&pa, N * sizeof(int), s0));
  unsigned long long used = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used == N * sizeof(int));
  fill<<<B, T, 0, s0>>>(pa, N, 5);
  CHECK(cudaEventRecord(e0, s0));
  CHECK(cudaSetDevice(1));
  int *pb = nullptr;
  CHECK(cudaMallocAsync(&pb, N * sizeof(int), s1));
  CHECK(cudaStreamWaitEvent(s1, e0, 0));
  twice_from<<<B, T, 0, s1>>>(pb, pa, N);
  CHECK(cudaMemcpyAsync(h.data(), pb, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
  CHECK(cudaFreeAsync(pa, s1));
  CHECK(cudaFreeAsync(pb, s1));
  CHECK(cudaStreamSynchronize(s1));
  ok = 1;
  for (int i = 0; i < N; i++) ok &= h[i] == 2 * (5 + i);
  EXPECT(ok);
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  EXPECT(used == 0);

  // every device at once, each from a host thread of its own, a grid with
  // barriers each
  std::vector<long long> sums(n);
  std::vector<std::thread> ts;
  for (int dv = 0; dv < n; dv++)
    ts.emplace_back([&, dv] {
      cudaSetDevice(dv);
      int *p;
      long long *s;
      cudaMalloc(&p, N * sizeof(int));
      cudaMalloc(&s, sizeof *s);
      cudaMemset(s, 0, sizeof *s);
      fill<<<B, T>>>(p, N, dv * 1000);
      bsum<<<B, 256>>>(p, s, N);
      cudaMemcpy(&sums[dv], s, sizeof *s, cudaMemcpyDeviceToHost);
      cudaFree(p);
      cudaFree(s);
    });
  for (auto &th : ts) th.join();
  for (int dv = 0; dv < n; dv++) EXPECT(sums[dv] == (long long)N * dv * 1000 + (long long)N * (N - 1) / 2);

  // the same contents on every device: nothing to say; other contents: said
  // once (the program's per-device values would be one value here)
  int c0[4] = {1, 2, 3, 4}, c1[4] = {5, 6, 7, 8}, back[4];
  for (int dv = 0; dv < n; dv++) {
    CHECK(cudaSetDevice(dv));
    CHECK(cudaMemcpyToSymbol(coef, c0, sizeof c0));
  }
  CHECK(cudaSetDevice(1));
  CHECK(cudaMemcpyToSymbol(coef, c1, sizeof c1));
  CHECK(cudaSetDevice(2));
  CHECK(cudaMemcpyToSymbol(coef, c0, sizeof c0));
  CHECK(cudaMemcpyFromSymbol(back, coef, sizeof back));
  EXPECT(back[3] == 4);

  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaFree(x0));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
