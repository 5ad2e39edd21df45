// Asynchronous copies as CUDA programs write them (issue 23, the samples'
// globalToShmemAsyncCopy and dmmaTensorCoreGemm): cooperative_groups'
// memcpy_async with wait and wait_prior (sizes as bytes, as
// cuda::aligned_size_t, and as element counts), cuda::memcpy_async through
// a thread-scope pipeline taken by some threads only, `__shared__
// alignas(16)` (nvcc's order). (Pipelines with producer and consumer
// roles: pipeline_roles.cu.) Checked against the host.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cstdio>
namespace cg = cooperative_groups;

static int fails;
#define CHECK(c, ...)                             \
  do {                                            \
    if (!(c)) {                                   \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      fails++;                                    \
    }                                             \
  } while (0)

// each block: 256 floats into shared memory by the whole block, then per
// warp 32 double2 by a tile, then 100 ints by element count; each thread
// writes back what it reads from shared memory
__global__ void groups(const float *f, const double2 *d, const int *n, float *fo, double2 *dout, int *no) {
  __shared__ alignas(16) float sf[256];
  __shared__ double2 sd[4][32];
  __shared__ int sn[128];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int b = blockIdx.x, t = threadIdx.x, w = t / 32;
  cg::memcpy_async(block, sf, f + b * 256, sizeof(float) * 256);
  cg::memcpy_async(tile, sd[w], d + (b * 4 + w) * 32, cuda::aligned_size_t<16>(32 * sizeof(double2)));
  cg::wait_prior<1>(block);
  cg::memcpy_async(block, sn, 128, n + b * 100, 100);   // min of the counts: 100 elements
  cg::wait(block);
  fo[b * 256 + (t + 7) % 256] = sf[(t + 7) % 256];
  dout[(b * 4 + w) * 32 + t % 32] = sd[w][(t + 1) % 32 == 0 ? 0 : (t + 1) % 32];
  if (t < 100) no[b * 100 + t] = sn[99 - t];
}

// globalToShmemAsyncCopy's LargeChunk kernel: a quarter of the threads
// copy 16 bytes each through their own pipeline, under a branch
__global__ void chunks(const float *in, float *out) {
  __shared__ alignas(alignof(float4)) float s[16][16];
  const auto shape4 = cuda::aligned_size_t<alignof(float4)>(sizeof(float4));
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int tx = threadIdx.x, ty = threadIdx.y, t4x = tx * 4;
  for (int r = 0; r < 3; r++) {
    if (t4x < 16) {
      pipe.producer_acquire();
      cuda::memcpy_async(&s[ty][t4x], &in[(r * 16 + ty) * 16 + t4x], shape4, pipe);
      pipe.producer_commit();
      pipe.consumer_wait();
    }
    __syncthreads();
    out[(r * 16 + ty) * 16 + tx] = s[tx][ty] * 2;
    pipe.consumer_release();
    __syncthreads();
  }
}

int main() {
  const int B = 3;
  float *f, *fo;
  double2 *d, *dout;
  int *n, *no;
  cudaMallocManaged(&f, B * 256 * sizeof(float));
  cudaMallocManaged(&fo, B * 256 * sizeof(float));
  cudaMallocManaged(&d, B * 128 * sizeof(double2));
  cudaMallocManaged(&dout, B * 128 * sizeof(double2));
  cudaMallocManaged(&n, B * 100 * sizeof(int));
  cudaMallocManaged(&no, B * 100 * sizeof(int));
  for (int i = 0; i < B * 256; i++) f[i] = i * 0.5f;
  for (int i = 0; i < B * 128; i++) d[i] = make_double2(i, -i);
  for (int i = 0; i < B * 100; i++) n[i] = i * 3 + 1;
  groups<<<B, 128>>>(f, d, n, fo, dout, no);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "groups launch");
  int bad = 0;
  for (int b = 0; b < B; b++)
    for (int t = 0; t < 128; t++) {
      int i = (t + 7) % 256, w = t / 32, j = (t + 1) % 32;
      bad += fo[b * 256 + i] != f[b * 256 + i];
      bad += dout[(b * 4 + w) * 32 + t % 32].x != d[(b * 4 + w) * 32 + j].x;
      bad += dout[(b * 4 + w) * 32 + t % 32].y != d[(b * 4 + w) * 32 + j].y;
      if (t < 100) bad += no[b * 100 + t] != n[b * 100 + 99 - t];
    }
  CHECK(bad == 0, "cg::memcpy_async: %d values wrong", bad);

  float *in, *out;
  cudaMallocManaged(&in, 3 * 256 * sizeof(float));
  cudaMallocManaged(&out, 3 * 256 * sizeof(float));
  for (int i = 0; i < 3 * 256; i++) in[i] = i + 1;
  chunks<<<1, dim3(16, 16)>>>(in, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "chunks launch");
  bad = 0;
  for (int r = 0; r < 3; r++)
    for (int y = 0; y < 16; y++)
      for (int x = 0; x < 16; x++) bad += out[(r * 16 + y) * 16 + x] != in[(r * 16 + x) * 16 + y] * 2;
  CHECK(bad == 0, "cuda::memcpy_async through a thread's pipeline: %d values wrong", bad);

  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
