// bugs.cu: one planted bug per kernel, for cucc --check (tests/check).
// ./bugs KIND launches the kernel with that bug and prints what the next
// synchronization returned; the checker must name the bug's line, thread and
// block (the lines are matched by tests/check/CMakeLists.txt: keep them).
// ./bugs clean runs the same kernels without their bugs.
#include <cstdio>
#include <cstring>

__global__ void oob(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) x[i] = i;                                   // line 11: i == n is out of bounds
}

__global__ void before(const int *x, int *y, int bad) {
  int i = threadIdx.x;
  y[i] = x[i - (i == bad ? 8 : 0)];                       // line 16: thread 7 reads x[-1]
}

__global__ void misaligned(const int *x, int *y, int bad) {
  const char *p = (const char *)x + (blockIdx.x == 1 && threadIdx.x == 5 ? bad : 0);
  y[threadIdx.x] = *(const int *)p;                       // line 21: block 1, thread 5
}

__global__ void shared_oob(int *y, int stride) {
  __shared__ int s[64];
  s[threadIdx.x * stride] = threadIdx.x;                  // line 26: past s when stride 2
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}

__global__ void local_oob(int *y, int bad) {
  int a[4];
  for (int k = 0; k < 4; k++) a[k] = k * (int)threadIdx.y;
  int j = threadIdx.x % 4 + (threadIdx.x == 3 && threadIdx.y == 2 ? bad : 0);
  y[threadIdx.y * blockDim.x + threadIdx.x] = a[j];       // line 35: thread (3,2,0)
}

__global__ void race(int *y, int sync) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;                           // line 40
  if (sync) __syncthreads();
  y[threadIdx.x] = s[63 - threadIdx.x];                   // line 42: no barrier since line 40
}

__global__ void uninit(const int *x, int *y) {
  y[threadIdx.x] = x[threadIdx.x] + 1;                    // line 46: x never written
}

__global__ void divergent_barrier(int *y, int limit) {
  y[threadIdx.x] = 1;
  if (threadIdx.x < limit) __syncthreads();               // line 51
  y[threadIdx.x] = 2;
}

__global__ void bad_mask(int *y, int limit) {
  int v = threadIdx.x;
  if (threadIdx.x < limit) v = __shfl_sync(0xffffffffu, v, 0);   // line 57: lanes 16..31 absent
  y[threadIdx.x] = v;
}

__global__ void bad_syncwarp(int *y, int step) {
  y[threadIdx.x] = threadIdx.x;
  if (threadIdx.x % step == 0) __syncwarp();              // line 63: odd lanes absent
}

__device__ int table[16];

__global__ void devvar(int *y, int bad) {
  const int *q = table;
  y[threadIdx.x] = q[threadIdx.x + (threadIdx.x == 2 ? bad : 0)];   // line 70: past table
}

__global__ void war(int *y, int sync) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int v = threadIdx.x < 32 ? s[threadIdx.x + 32] : 0;     // line 77: warp 0 reads
  if (sync) __syncthreads();
  if (threadIdx.x >= 32) s[threadIdx.x] = -1;             // line 79: warp 1 overwrites
  __syncthreads();
  y[threadIdx.x] = v + s[threadIdx.x];
}

__global__ void war2(int *y, int sync) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int v = threadIdx.x == 0 || threadIdx.x == 5 ? s[0] : 0;   // line 88: two readers
  if (sync) __syncwarp();
  if (threadIdx.x == 0) s[0] = v + 1;                       // line 90: against the second
  __syncthreads();
  y[threadIdx.x] = v + s[threadIdx.x];
}

// Reads that are one range or one broadcast per warp (checked once, then
// logged until a write comes), against a later write by another thread.
__global__ void war3(int *y) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int u = s[1] * (int)threadIdx.x, v = 0;                   // line 101: everyone reads s[1]
  if (threadIdx.x < 32) v = s[threadIdx.x + 32];            // line 102: warp 0 reads a range
  if (threadIdx.x >= 32) s[threadIdx.x] = -1;               // line 103: warp 1 overwrites it
  if (threadIdx.x == 1) s[threadIdx.x] = 7;                 // line 104: thread 1 overwrites s[1]
  __syncthreads();
  y[threadIdx.x] = u + v + s[threadIdx.x];
}

// A read in uniform code (once per warp), racing with a write of thread 0:
// the block-wide version would run it once per block, as thread 0 alone.
__global__ void war4(int *y) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int k = s[0];                                             // line 115: every warp reads s[0]
  if (threadIdx.x == 0) s[0] = k + 1;                       // line 116: thread 0 writes it
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x] + k;
}

// A logged broadcast read, then a read recorded directly by a thread of
// the writer's warp: the logged reader must still be seen by the write.
__global__ void war5(int *y) {
  __shared__ int s[64];
  int t = threadIdx.x + 32 * threadIdx.y;
  s[t] = t;
  __syncthreads();
  int v = s[40] * t;                                        // line 128: everyone reads s[40]
  if (t >= 32) { if (s[40] >= 0) s[t] = 0; }                // line 129: thread 40 writes it
  __syncthreads();
  y[t] = v + s[t];
}

// A loop tested as a whole before it runs (16 x 16 blocks: half rows):
// b is one element short (memcheck) or its last element never written
// (initcheck); only threads of column 15 read it, in the last iteration.
__global__ void loop_mm(const int *a, const int *b, int *c, int n) {
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  int sum = 0;
  for (int k = 0; k < n; k++) sum += a[row * n + k] * b[k * n + col];   // line 140
  c[row * n + col] = sum;
}

// Range writes and reads of two warps in one interval (no barrier).
__global__ void raw(int *y) {
  __shared__ int s[64];
  int t = threadIdx.x + 32 * threadIdx.y, v = 0;
  s[t] = t;                                                 // line 148: each warp its own words
  if (threadIdx.y == 1) v = s[threadIdx.x];                 // line 149: warp 1 reads warp 0's
  s[32 + threadIdx.x] = v;                                  // line 150: both warps write s[32..63]
  __syncthreads();
  y[t] = s[t];
}

// Reads in a loop tested as a whole (one row of lanes per iteration), then
// a write by another thread of a word read in the second iteration.
__global__ void war_loop(int *y) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  s[threadIdx.x + 64] = 0;
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 2; k++) acc += s[threadIdx.x + 32 * k];   // line 163: s[32..63] at k = 1
  if (threadIdx.x >= 32) s[threadIdx.x] = acc;                  // line 164: overwritten
  __syncthreads();
  y[threadIdx.x] = s[threadIdx.x];
}

// The divergent reduction (every 2s-th thread: runs tested as one range)
// with its barrier left out: at stride 2 thread 0 reads what thread 2
// wrote at stride 1.
__global__ void div_race(int *y, int sync) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (sync) __syncthreads();
    if (t % (2 * stride) == 0) s[t] += s[t + stride];       // line 179
  }
  __syncthreads();
  if (t == 0) y[0] = s[0];
}

static int report(const char *what) {
  cudaError_t e = cudaDeviceSynchronize();
  printf("%s: %s\n", what, cudaGetErrorName(e));
  return e != cudaSuccess;
}

int main(int argc, char **argv) {
  const char *k = argc > 1 ? argv[1] : "clean";
  bool all = !strcmp(k, "clean");   // every kernel, without its bug
  int n = 1000, *x, *y, h[1024];
  for (int i = 0; i < 1024; i++) h[i] = i;
  cudaMalloc(&x, n * sizeof(int));
  cudaMalloc(&y, 1024 * sizeof(int));
  cudaMemset(y, 0, 1024 * sizeof(int));
  if (!strcmp(k, "uninit")) {
    uninit<<<1, 32>>>(x, y);
    return report("uninit");
  }
  cudaMemcpy(x, h, n * sizeof(int), cudaMemcpyHostToDevice);
  int fails = 0;
  if (all || !strcmp(k, "oob")) {
    oob<<<(n + 255) / 256, 256>>>(x, all ? n - 1 : n);
    fails += report("oob");
  }
  if (all || !strcmp(k, "before")) {
    before<<<1, 32>>>(x, y, all ? -1 : 7);
    fails += report("before");
  }
  if (all || !strcmp(k, "misaligned")) {
    misaligned<<<2, 32>>>(x, y, all ? 4 : 2);
    fails += report("misaligned");
  }
  if (all || !strcmp(k, "shared")) {
    shared_oob<<<1, 64>>>(y, all ? 1 : 2);
    fails += report("shared");
  }
  if (all || !strcmp(k, "local")) {
    local_oob<<<1, dim3(8, 4)>>>(y, all ? 0 : 1);
    fails += report("local");
  }
  if (all || !strcmp(k, "race")) {
    race<<<1, 64>>>(y, all);
    fails += report("race");
  }
  if (all || !strcmp(k, "barrier")) {
    divergent_barrier<<<1, 32>>>(y, all ? 32 : 16);
    fails += report("barrier");
  }
  if (all || !strcmp(k, "mask")) {
    bad_mask<<<1, 32>>>(y, all ? 32 : 16);
    fails += report("mask");
  }
  if (all || !strcmp(k, "syncwarp")) {
    bad_syncwarp<<<1, 32>>>(y, all ? 1 : 2);
    fails += report("syncwarp");
  }
  if (all || !strcmp(k, "devvar")) {
    devvar<<<1, 16>>>(y, all ? 0 : 14);
    fails += report("devvar");
  }
  if (all || !strcmp(k, "war")) {
    war<<<1, 64>>>(y, all);
    fails += report("war");
  }
  if (all || !strcmp(k, "war2")) {
    war2<<<1, 32>>>(y, all);
    fails += report("war2");
  }
  if (!strcmp(k, "war3")) {
    war3<<<1, 64>>>(y);
    fails += report("war3");
  }
  if (!strcmp(k, "war4")) {
    war4<<<1, 64>>>(y);
    fails += report("war4");
  }
  if (!strcmp(k, "war5")) {
    war5<<<1, dim3(32, 2)>>>(y);
    fails += report("war5");
  }
  if (all || !strcmp(k, "loop_oob") || !strcmp(k, "loop_uninit")) {
    // 16 x 16: a (256 ints) from x; b of 255 ints (loop_oob) or 256 with
    // the last one never written (loop_uninit); c into y
    int *b, nb = !strcmp(k, "loop_oob") ? 255 : 256;
    cudaMalloc(&b, nb * sizeof(int));
    cudaMemcpy(b, h, (all ? 256 : 255) * sizeof(int), cudaMemcpyHostToDevice);
    loop_mm<<<1, dim3(16, 16)>>>(x, b, y, 16);
    fails += report("loop");
    cudaFree(b);
  }
  if (all || !strcmp(k, "div_race")) {
    div_race<<<1, 64>>>(y, all);
    fails += report("div_race");
  }
  if (!strcmp(k, "raw")) {
    raw<<<1, dim3(32, 2)>>>(y);
    fails += report("raw");
  }
  if (!strcmp(k, "war_loop")) {
    war_loop<<<1, 64>>>(y);
    fails += report("war_loop");
  }
  if (!strcmp(k, "memcpy")) {
    printf("long cudaMemcpy: %s\n", cudaGetErrorName(cudaMemcpy(x, h, (n + 1) * sizeof(int), cudaMemcpyHostToDevice)));
  }
  if (!strcmp(k, "free")) {
    cudaFree(y);
    printf("second cudaFree: %s\n", cudaGetErrorName(cudaFree(y)));
    y = NULL;
  }
  cudaFree(x);
  if (strcmp(k, "leak")) cudaFree(y);
  if (all) printf("%s\n", fails ? "FAIL" : "PASS");
  return all && fails;
}
