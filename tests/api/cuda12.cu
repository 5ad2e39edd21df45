// cuda12.cu: runtime API of CUDA 12 that programs use without thinking
// twice: cudaLaunchKernelEx (variadic and ExC forms, with attributes),
// kernel parameters up to 32 KB (__grid_constant__), stream attributes
// (access policy windows), the device's texture and surface limits and
// attributes, peer attributes, cudaHostGetDevicePointer of a typed pointer
// and cudaMemPrefetchAsync/cudaMemAdvise with a cudaMemLocation. Each result
// is checked.
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

struct Big { int v[8000]; };   // 32000 bytes: more than the old 4 KB limit

__global__ void sum_big(__grid_constant__ const Big b, int scale, long long *out) {
  long long s = 0;
  for (int i = threadIdx.x; i < 8000; i += blockDim.x) s += b.v[i];
  atomicAdd((unsigned long long *)out, (unsigned long long)(s * scale));
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

int main() {
  // cudaLaunchKernelEx: arguments converted to the parameters' types
  static Big b;
  long long want = 0;
  for (int i = 0; i < 8000; i++) want += b.v[i] = i % 13 - 6 + i / 1000;
  long long *out;
  OK(cudaMallocManaged(&out, sizeof *out));
  *out = 0;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(3);
  cfg.blockDim = dim3(128);
  cudaLaunchAttribute at[2];
  at[0].id = cudaLaunchAttributePriority;
  at[0].val.priority = -1;
  at[1].id = cudaLaunchAttributeCooperative;
  at[1].val.cooperative = 0;
  cfg.attrs = at;
  cfg.numAttrs = 2;
  OK(cudaLaunchKernelEx(&cfg, sum_big, b, 2, out));   // 2 (an int) for scale
  OK(cudaDeviceSynchronize());
  EXPECT(*out == 3 * 2 * want);

  const int N = 1000;
  float *x, *y;
  OK(cudaMallocManaged(&x, N * sizeof(float)));
  OK(cudaMallocManaged(&y, N * sizeof(float)));
  for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1;
  cudaStream_t s;
  OK(cudaStreamCreate(&s));
  cfg.gridDim = dim3((N + 255) / 256);
  cfg.blockDim = dim3(256);
  cfg.stream = s;
  cfg.numAttrs = 0;
  OK(cudaLaunchKernelEx(&cfg, axpy, 2.0, x, y, N));   // 2.0 (a double) for the float
  float a = 3;
  int n = N;
  void *args[] = {&a, &x, &y, &n};
  OK(cudaLaunchKernelExC(&cfg, (const void *)axpy, args));
  OK(cudaStreamSynchronize(s));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += y[i] != 1 + 5.0f * i;
  EXPECT(wrong == 0);
  // a grid that cluster dimensions do not divide is refused
  at[0].id = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = 3, at[0].val.clusterDim.y = 1, at[0].val.clusterDim.z = 1;
  cfg.numAttrs = 1;
  cfg.gridDim = dim3(4);
  EXPECT(cudaLaunchKernelExC(&cfg, (const void *)axpy, args) == cudaErrorInvalidValue);
  cudaGetLastError();

  // stream attributes
  cudaDeviceProp p;
  OK(cudaGetDeviceProperties(&p, 0));
  cudaStreamAttrValue v = {}, got = {};
  v.accessPolicyWindow.base_ptr = x;
  v.accessPolicyWindow.num_bytes = N * sizeof(float);
  v.accessPolicyWindow.hitRatio = 0.6f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  OK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  OK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
  EXPECT(got.accessPolicyWindow.base_ptr == x && got.accessPolicyWindow.hitRatio == 0.6f &&
         got.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
  cudaStream_t s2;
  OK(cudaStreamCreate(&s2));
  OK(cudaStreamCopyAttributes(s2, s));
  OK(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &got));
  EXPECT(got.accessPolicyWindow.num_bytes == N * sizeof(float));
  v.accessPolicyWindow.hitRatio = 2;
  EXPECT(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v) == cudaErrorInvalidValue);
  cudaGetLastError();
  OK(cudaCtxResetPersistingL2Cache());

  // the device's limits, as properties and as attributes
  int t1 = 0, t2h = 0, sa = 0, l2l = 0;
  OK(cudaDeviceGetAttribute(&t1, cudaDevAttrMaxTexture1DWidth, 0));
  OK(cudaDeviceGetAttribute(&t2h, cudaDevAttrMaxTexture2DHeight, 0));
  OK(cudaDeviceGetAttribute(&sa, cudaDevAttrSurfaceAlignment, 0));
  OK(cudaDeviceGetAttribute(&l2l, cudaDevAttrMaxTexture2DLayeredLayers, 0));
  EXPECT(t1 == p.maxTexture1D && t1 > 0 && t2h == p.maxTexture2D[1] && sa == (int)p.surfaceAlignment &&
         l2l == p.maxTexture2DLayered[2] && p.maxTexture3D[2] > 0 && p.maxTexture1DLayered[1] > 0);
  // one device: no peer pairs
  int pr = 7;
  EXPECT(cudaDeviceGetP2PAttribute(&pr, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice);
  cudaGetLastError();

  // typed pointers and locations
  float *h, *hd = NULL;
  OK(cudaHostAlloc(&h, 64 * sizeof(float), cudaHostAllocMapped));
  OK(cudaHostGetDevicePointer(&hd, h, 0));
  EXPECT(hd == h);
  cudaMemLocation dev = {cudaMemLocationTypeDevice, 0}, host = {cudaMemLocationTypeHost, 0};
  OK(cudaMemPrefetchAsync(x, N * sizeof(float), dev, 0, s));
  OK(cudaMemPrefetchAsync(x, N * sizeof(float), host, 0));
  OK(cudaMemAdvise(y, N * sizeof(float), cudaMemAdviseSetPreferredLocation, dev));
  cudaMemLocation nodev = {cudaMemLocationTypeDevice, 3};
  EXPECT(cudaMemAdvise(y, N * sizeof(float), cudaMemAdviseSetAccessedBy, nodev) == cudaErrorInvalidDevice);
  cudaGetLastError();
  OK(cudaStreamSynchronize(s));

  OK(cudaFreeHost(h));
  OK(cudaFree(x));
  OK(cudaFree(y));
  OK(cudaFree(out));
  OK(cudaStreamDestroy(s));
  OK(cudaStreamDestroy(s2));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
