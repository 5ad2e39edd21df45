// geometry.cu: 1-D, 2-D and 3-D blocks and grids. Every thread writes its
// threadIdx, blockIdx, blockDim, gridDim, warpSize, warp and lane into the
// slot of its global linear id (linear thread id x + y*Dx + z*Dx*Dy, blocks
// likewise); the host checks every slot was written once with the right ids.
// Block sizes 1, 31, 32, 33, 100, 1000, 1024: partial last warps.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define F 16   // ints per thread

__global__ void ids(int *o) {
  int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  int bid = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
  int nthreads = blockDim.x * blockDim.y * blockDim.z;
  long long g = (long long)bid * nthreads + tid;
  int *r = o + g * F;
  r[0] = threadIdx.x; r[1] = threadIdx.y; r[2] = threadIdx.z;
  r[3] = blockIdx.x;  r[4] = blockIdx.y;  r[5] = blockIdx.z;
  r[6] = blockDim.x;  r[7] = blockDim.y;  r[8] = blockDim.z;
  r[9] = gridDim.x;   r[10] = gridDim.y;  r[11] = gridDim.z;
  r[12] = warpSize;
  r[13] = tid / warpSize;
  r[14] = tid % warpSize;
  r[15] += 1;         // zeroed by the host: counts how often the slot is written
}

static int check(dim3 grid, dim3 block) {
  long long nt = (long long)block.x * block.y * block.z;
  long long nb = (long long)grid.x * grid.y * grid.z;
  long long total = nt * nb;
  size_t bytes = (size_t)total * F * sizeof(int);
  int *h = (int *)malloc(bytes), *d;
  CHECK(cudaMalloc(&d, bytes));
  CHECK(cudaMemset(d, 0, bytes));
  ids<<<grid, block>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (long long g = 0; g < total; g++) {
    long long bid = g / nt, tid = g % nt;
    int w[F] = {
      (int)(tid % block.x), (int)(tid / block.x % block.y), (int)(tid / (block.x * block.y)),
      (int)(bid % grid.x), (int)(bid / grid.x % grid.y), (int)(bid / ((long long)grid.x * grid.y)),
      (int)block.x, (int)block.y, (int)block.z, (int)grid.x, (int)grid.y, (int)grid.z,
      32, (int)(tid / 32), (int)(tid % 32), 1};
    for (int k = 0; k < F; k++)
      if (h[g * F + k] != w[k] && bad++ < 5)
        printf("grid (%u,%u,%u) block (%u,%u,%u): thread %lld field %d = %d, want %d\n",
               grid.x, grid.y, grid.z, block.x, block.y, block.z, g, k, h[g * F + k], w[k]);
  }
  printf("grid (%u,%u,%u) block (%u,%u,%u): %lld threads %s\n", grid.x, grid.y, grid.z,
         block.x, block.y, block.z, total, bad ? "WRONG" : "ok");
  CHECK(cudaFree(d));
  free(h);
  return bad;
}

int main() {
  int bad = 0;
  // 1-D
  const int sizes[] = {1, 31, 32, 33, 100, 1000, 1024};
  for (int s = 0; s < 7; s++) bad += check(dim3(3), dim3(sizes[s]));
  bad += check(dim3(5000), dim3(1));
  bad += check(dim3(1), dim3(1));
  // 2-D
  bad += check(dim3(3, 2), dim3(16, 8));
  bad += check(dim3(2, 3), dim3(31, 3));
  bad += check(dim3(1, 2), dim3(32, 32));
  bad += check(dim3(4, 5), dim3(5, 7));
  bad += check(dim3(2, 300), dim3(1, 1));
  // 3-D
  bad += check(dim3(2, 3, 2), dim3(4, 4, 4));
  bad += check(dim3(1, 1, 2), dim3(10, 10, 10));
  bad += check(dim3(2, 2, 3), dim3(3, 5, 7));
  bad += check(dim3(1, 1, 1), dim3(1, 1, 64));
  bad += check(dim3(1, 2, 1), dim3(8, 4, 32));
  bad += check(dim3(3, 1, 5), dim3(1, 33, 1));
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
