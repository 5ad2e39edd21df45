// Conditions that are constants once a template is instantiated
// (lowering/fold.c): cuda-samples' reduce6 spelling (`blockSize >= 512 &&
// tid < 256`, `if (nIsPow2)`), CUB's `FULL ? 31 : valid - 1`, a dead
// branch holding barriers, `||` and `!` of constants. Checked against a
// CPU reference for every instantiation launched.
#include <cstdio>
#include <cstdlib>

template <unsigned blockSize, bool nIsPow2>
__global__ void reduce(const int *g, int *out, unsigned n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x;
  unsigned gridSize = blockSize * gridDim.x;
  int mySum = 0;
  if (nIsPow2) {
    unsigned i = blockIdx.x * blockSize * 2 + threadIdx.x;
    gridSize = gridSize << 1;
    while (i < n) {
      mySum += g[i];
      if ((i + blockSize) < n) mySum += g[i + blockSize];
      i += gridSize;
    }
  } else {
    unsigned i = blockIdx.x * blockSize + threadIdx.x;
    while (i < n) {
      mySum += g[i];
      i += gridSize;
    }
  }
  sdata[tid] = mySum;
  __syncthreads();
  if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
  __syncthreads();
  if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();
  if (blockSize >= 64) {   // a dead branch with barriers in it
    if (tid < 32) sdata[tid] = mySum = mySum + sdata[tid + 32];
    __syncthreads();
  }
  for (unsigned s = (blockSize < 32 ? blockSize : 32) / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = mySum;
}

// CUB's spelling: the last valid lane of a full tile is a constant
template <bool FULL>
__global__ void lastlane(const int *in, int *out, int valid) {
  int lane = threadIdx.x % 32;
  int last = FULL ? 31 : valid - 1;
  int ok = (FULL && 1) || lane <= last;
  int v = !(FULL || 0) && lane > last ? -1 : in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = ok ? v + last : -7;
}

static int fails = 0;
static void check(const char *what, long got, long want) {
  if (got != want) {
    printf("FAIL %s: got %ld, want %ld\n", what, got, want);
    fails++;
  }
}

template <unsigned B, bool P>
static void run_reduce(const int *dg, const int *h, unsigned n) {
  int blocks = 7, *dout, out[7];
  cudaMalloc(&dout, sizeof out);
  reduce<B, P><<<blocks, B, (B < 64 ? 64 : B) * sizeof(int)>>>(dg, dout, n);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  long got = 0, want = 0;   // the grid-stride loops cover every element
  for (int b = 0; b < blocks; b++) got += out[b];
  for (unsigned i = 0; i < n; i++) want += h[i];
  char name[64];
  snprintf(name, sizeof name, "reduce<%u, %d>", B, (int)P);
  check(name, got, want);
  cudaFree(dout);
}

int main() {
  const unsigned n = 100003;
  int *h = (int *)malloc(n * sizeof(int)), *dg;
  for (unsigned i = 0; i < n; i++) h[i] = (int)(i * 7u % 101u) - 50;
  cudaMalloc(&dg, n * sizeof(int));
  cudaMemcpy(dg, h, n * sizeof(int), cudaMemcpyHostToDevice);
  run_reduce<512, true>(dg, h, n);
  run_reduce<512, false>(dg, h, n);
  run_reduce<128, true>(dg, h, n);
  run_reduce<64, false>(dg, h, n);
  run_reduce<32, true>(dg, h, n);
  run_reduce<16, false>(dg, h, n);
  run_reduce<1, true>(dg, h, n);

  int *dout, out[64];
  cudaMalloc(&dout, sizeof out);
  lastlane<true><<<2, 32>>>(dg, dout, 20);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; i++) check("lastlane<true>", out[i], h[i] + 31);
  lastlane<false><<<2, 32>>>(dg, dout, 20);
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64; i++) check("lastlane<false>", out[i], i % 32 <= 19 ? h[i] + 19 : -7);

  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 1; }
  if (fails) return 1;
  printf("PASS const_fold: every instantiation agrees with the CPU\n");
  return 0;
}
