// cdp.cu: dynamic parallelism as CUDA 12 (CDP2) defines it, each part
// checked against a CPU reference right after the host waits for the
// parent grid (so a parent must complete after all its descendants).
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int fails;
#define CHECK(c, ...)                  \
  do {                                 \
    if (!(c)) {                        \
      printf("FAIL: " __VA_ARGS__);    \
      printf("\n");                    \
      fails++;                         \
    }                                  \
  } while (0)

// 1. every thread launches its own child grid
__global__ void fill(int *out, int who, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[who * n + i] = who * 1000 + i;
}
__global__ void per_thread(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  fill<<<(n + 31) / 32, 32>>>(out, t, n);   // configuration and arguments per thread
}

// 2. launches under divergence: only the lanes that take the branch launch
__global__ void count(int *hits, int who) { atomicAdd(&hits[who], 1); }
__global__ void divergent(int *hits) {
  int t = threadIdx.x;
  if (t % 3 == 1) {
    count<<<2, 4>>>(hits, t);     // 8 hits for each such thread
  } else if (t % 5 == 0) {
    count<<<1, 1>>>(hits, t);     // 1 hit
  }
}

// 3. recursion: quicksort, each side in a stream of its own, a selection
// sort past a depth or a size (cdpSimpleQuicksort's shape)
__device__ void selection(unsigned *d, int l, int r) {
  for (int i = l; i <= r; i++) {
    int m = i;
    for (int j = i + 1; j <= r; j++)
      if (d[j] < d[m]) m = j;
    unsigned v = d[m];
    d[m] = d[i];
    d[i] = v;
  }
}
__global__ void quicksort(unsigned *d, int l, int r, int depth, int *maxdepth) {
  atomicMax(maxdepth, depth);
  if (depth >= 12 || r - l <= 8) {
    selection(d, l, r);
    return;
  }
  unsigned *lp = d + l, *rp = d + r, pivot = d[(l + r) / 2];
  while (lp <= rp) {
    unsigned lv = *lp, rv = *rp;
    while (lv < pivot) lv = *++lp;
    while (rv > pivot) rv = *--rp;
    if (lp <= rp) {
      *lp++ = rv;
      *rp-- = lv;
    }
  }
  if (l < rp - d) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(d, l, (int)(rp - d), depth + 1, maxdepth);
    cudaStreamDestroy(s);
  }
  if (lp - d < r) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(d, (int)(lp - d), r, depth + 1, maxdepth);
    cudaStreamDestroy(s);
  }
}
static int cmpu(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

// 4. a named stream keeps its children in order; the tail stream runs
// after every other child; device-side cudaMalloc/cudaFree and
// cudaMemcpyAsync in stream order
__global__ void step(int *v, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}
__global__ void total(const int *v, int n, int *out, int *scratch) {
  int s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  *out = s;
  cudaFree(scratch);   // allocated by the grandparent's thread
}
__global__ void ordered(int *res, int n) {
  int b = blockIdx.x;
  int *buf;
  if (cudaMalloc(&buf, n * sizeof(int)) != cudaSuccess) {
    res[b] = -1;
    return;
  }
  for (int i = 0; i < n; i++) buf[i] = i;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  // ((i * 2 + 1) * 3 + b) then copied out: order matters
  step<<<(n + 63) / 64, 64, 0, s>>>(buf, n, 2, 1);
  step<<<(n + 63) / 64, 64, 0, s>>>(buf, n, 3, b);
  cudaMemcpyAsync(res + 64 + b * n, buf, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
  cudaStreamDestroy(s);
  total<<<1, 1, 0, cudaStreamTailLaunch>>>(buf, n, &res[b], buf);
}

// 5. a launch from a __device__ function; the device's last error
__device__ void launch_from_device(int *hits, int who) { count<<<1, 3>>>(hits, who); }
__global__ void via_device(int *hits, int *errs) {
  launch_from_device(hits, threadIdx.x);
  if (threadIdx.x % 2) count<<<1, 4096>>>(hits, 0);   // too many threads: refused, not run
  errs[threadIdx.x] = cudaGetLastError();               // each thread's own
  errs[64 + threadIdx.x] = cudaGetLastError();   // read once: now success
  int dev = -1;
  cudaGetDevice(&dev);
  errs[128 + threadIdx.x] = dev;
}

// a __host__ __device__ function that launches: a host launch from the
// host, a child grid from a kernel
__host__ __device__ void go(int *hits, int who) { count<<<1, 2>>>(hits, who); }
__global__ void via_hd(int *hits) { go(hits, threadIdx.x); }

// 2-D blocks (16 x 4: half-row warps): each thread its own launch
__global__ void tile(int *out, int w) {
  int x = blockIdx.x * 16 + threadIdx.x, y = threadIdx.y;
  fill<<<1, 2>>>(out, y * w + x, 2);
}

// 6. nesting: children launched by children; the host waits through an event
__global__ void nest(int *depths, int level) {
  atomicAdd(&depths[level], 1);
  if (level < 4 && threadIdx.x < 2) nest<<<1, 3>>>(depths, level + 1);
}

int main() {
  // 1
  const int T = 96, N = 40;
  int *out;
  cudaMallocManaged(&out, T * N * sizeof(int));
  memset(out, 0xff, T * N * sizeof(int));
  per_thread<<<3, 32>>>(out, N);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "per_thread sync");
  int bad = 0;
  for (int i = 0; i < T * N; i++) bad += out[i] != (i / N) * 1000 + i % N;
  CHECK(bad == 0, "per_thread: %d wrong", bad);

  // 2
  int *hits;
  cudaMallocManaged(&hits, 64 * sizeof(int));
  memset(hits, 0, 64 * sizeof(int));
  divergent<<<1, 64>>>(hits);
  cudaDeviceSynchronize();
  bad = 0;
  for (int t = 0; t < 64; t++) bad += hits[t] != (t % 3 == 1 ? 8 : t % 5 == 0 ? 1 : 0);
  CHECK(bad == 0, "divergent: %d wrong", bad);

  // 3
  const int Q = 5000;
  unsigned *d, *h = (unsigned *)malloc(Q * sizeof(unsigned)), *ref = (unsigned *)malloc(Q * sizeof(unsigned));
  int *maxdepth;
  cudaMalloc(&d, Q * sizeof(unsigned));
  cudaMallocManaged(&maxdepth, sizeof(int));
  *maxdepth = 0;
  srand(7);
  for (int i = 0; i < Q; i++) ref[i] = h[i] = (unsigned)rand() % 10000;
  cudaMemcpy(d, h, Q * sizeof(unsigned), cudaMemcpyHostToDevice);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 16) == cudaSuccess, "sync depth limit");
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096) == cudaSuccess, "pending launch limit");
  quicksort<<<1, 1>>>(d, 0, Q - 1, 0, maxdepth);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "quicksort sync");
  cudaMemcpy(h, d, Q * sizeof(unsigned), cudaMemcpyDeviceToHost);
  qsort(ref, Q, sizeof *ref, cmpu);
  CHECK(!memcmp(h, ref, Q * sizeof(unsigned)), "quicksort differs from qsort");
  CHECK(*maxdepth >= 8, "quicksort recursed only %d deep", *maxdepth);

  // 4
  const int B = 4, M = 100;
  int *res;
  cudaMallocManaged(&res, (64 + B * M) * sizeof(int));
  memset(res, 0, (64 + B * M) * sizeof(int));
  ordered<<<B, 1>>>(res, M);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "ordered sync");
  for (int b = 0; b < B; b++) {
    int s = 0;
    bad = 0;
    for (int i = 0; i < M; i++) {
      int v = (i * 2 + 1) * 3 + b;
      s += v;
      bad += res[64 + b * M + i] != v;
    }
    CHECK(res[b] == s, "ordered: block %d total %d, expected %d", b, res[b], s);
    CHECK(bad == 0, "ordered: block %d copy has %d wrong", b, bad);
  }

  // 5
  int *errs;
  memset(hits, 0, 64 * sizeof(int));
  cudaMallocManaged(&errs, 3 * 64 * sizeof(int));
  via_device<<<1, 64>>>(hits, errs);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "via_device sync");
  bad = 0;
  for (int t = 0; t < 64; t++)
    bad += hits[t] != 3 || (errs[t] == cudaSuccess) != (t % 2 == 0) || errs[64 + t] != cudaSuccess ||
           errs[128 + t] != 0;
  CHECK(bad == 0, "via_device: %d wrong (hits[0] %d err %d then %d)", bad, hits[0], errs[0], errs[64]);

  memset(hits, 0, 64 * sizeof(int));
  go(hits, 40);
  via_hd<<<1, 8>>>(hits);
  cudaDeviceSynchronize();
  bad = 0;
  for (int t = 0; t < 64; t++) bad += hits[t] != (t < 8 || t == 40 ? 2 : 0);
  CHECK(bad == 0, "via_hd: %d wrong", bad);

  const int W = 32;
  memset(out, 0xff, W * 4 * 2 * sizeof(int));
  tile<<<2, dim3(16, 4)>>>(out, W);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < W * 4 * 2; i++) bad += out[i] != (i / 2) * 1000 + i % 2;
  CHECK(bad == 0, "tile: %d wrong", bad);

  // 6: the parent completes after its descendants, also for an event of
  // a stream of its own
  int *depths;
  cudaMallocManaged(&depths, 8 * sizeof(int));
  memset(depths, 0, 8 * sizeof(int));
  cudaStream_t st;
  cudaEvent_t ev;
  cudaStreamCreate(&st);
  cudaEventCreate(&ev);
  nest<<<1, 3, 0, st>>>(depths, 0);
  cudaEventRecord(ev, st);
  cudaEventSynchronize(ev);
  int want = 1;   // 1, 2, 4, 8, 16 grids of 3 threads
  for (int l = 0; l < 5; l++, want *= 2) CHECK(depths[l] == 3 * want, "nest: level %d has %d", l, depths[l]);

  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
