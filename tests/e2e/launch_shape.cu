// Kernels that read threadIdx.y (cooperative groups' thread_rank()), launched
// with blocks of every spelling: where every launch in the file is 1-D the
// lowering prints no half-row version (tests/lower: lower_launch_shape);
// the answers are the same whichever version runs.
#include <cooperative_groups.h>
#include <stdio.h>
namespace cg = cooperative_groups;

// the block's rank of each thread, and its threadIdx.y
__global__ void rank_int(int *out) {
  cg::thread_block b = cg::this_thread_block();
  unsigned r = b.thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
__global__ void rank_var(int *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
__global__ void rank_tile(int *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
__global__ void rank_changed(int *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
__global__ void rank_pointer(int *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
__global__ void rank_byref(int *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (int)(r * 10 + threadIdx.y);
}
template <class T, int B> __global__ void rank_tmpl(T *out) {
  unsigned r = cg::this_thread_block().thread_rank();
  out[blockIdx.x * blockDim.x * blockDim.y + r] = (T)(r * 10 + threadIdx.y + B);
}

static void widen(dim3 &b) { b.y = 2; }

template <class T> static int run_tmpl(T *d, int threads) {
  dim3 block(threads, 1, 1), grid(2);
  dim3 copy = block;
  rank_tmpl<T, 0><<<grid, copy>>>(d);
  cudaDeviceSynchronize();
  rank_tmpl<T, 1><<<2, block>>>(d + 2 * threads);
  return cudaDeviceSynchronize() != cudaSuccess;
}

static int bad;
static void check(const char *what, const int *h, int n, int bx, int by, int plus) {
  for (int i = 0; i < n; i++) {
    int r = i % (bx * by), want = r * 10 + r / bx + plus;
    if (h[i] != want) {
      printf("%s: [%d] = %d, want %d\n", what, i, h[i], want);
      bad = 1;
      return;
    }
  }
}

int main() {
  int *d, h[4096];
  cudaMalloc(&d, sizeof h);
  int n = 64;
  rank_int<<<2, n>>>(d);
  cudaMemcpy(h, d, 2 * n * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_int", h, 2 * n, n, 1, 0);
  dim3 bx;      // dim3's default, then its x alone set
  bx.x = 96;
  rank_int<<<2, bx>>>(d);
  cudaMemcpy(h, d, 2 * 96 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_int .x", h, 2 * 96, 96, 1, 0);

  dim3 b1(n, 1, 1);
  rank_var<<<2, b1>>>(d);
  cudaMemcpy(h, d, 2 * n * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_var", h, 2 * n, n, 1, 0);
  dim3 b2 = dim3(48);   // not whole warps: the general version
  rank_var<<<2, b2>>>(d);
  cudaMemcpy(h, d, 2 * 48 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_var 48", h, 2 * 48, 48, 1, 0);
  dim3 b3{(unsigned)n, 1u};
  rank_var<<<dim3(2), b3>>>(d);
  cudaMemcpy(h, d, 2 * n * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_var {}", h, 2 * n, n, 1, 0);

  rank_tile<<<2, dim3(16, 16)>>>(d);
  cudaMemcpy(h, d, 2 * 256 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_tile", h, 2 * 256, 16, 16, 0);
  rank_tile<<<2, 32>>>(d);
  cudaMemcpy(h, d, 2 * 32 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_tile 1-D", h, 2 * 32, 32, 1, 0);

  dim3 b4(16);
  b4.y = 4;
  rank_changed<<<2, b4>>>(d);
  cudaMemcpy(h, d, 2 * 64 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_changed", h, 2 * 64, 16, 4, 0);

  // launched 1-D here, and through a pointer with a 2-D block
  rank_pointer<<<2, 64>>>(d);
  cudaMemcpy(h, d, 2 * 64 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_pointer", h, 2 * 64, 64, 1, 0);
  void *args[] = {&d};
  cudaLaunchKernel((const void *)rank_pointer, dim3(2), dim3(16, 8), args, 0, 0);
  cudaMemcpy(h, d, 2 * 128 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_pointer 16x8", h, 2 * 128, 16, 8, 0);

  dim3 b5(16);
  widen(b5);
  rank_byref<<<2, b5>>>(d);
  cudaMemcpy(h, d, 2 * 32 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_byref", h, 2 * 32, 16, 2, 0);

  bad |= run_tmpl(d, 96);
  cudaMemcpy(h, d, 4 * 96 * sizeof(int), cudaMemcpyDeviceToHost);
  check("rank_tmpl<int, 0>", h, 2 * 96, 96, 1, 0);
  check("rank_tmpl<int, 1>", h + 2 * 96, 2 * 96, 96, 1, 1);
  cudaFree(d);
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad;
}
