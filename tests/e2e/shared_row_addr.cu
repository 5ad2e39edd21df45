// The address of a row of a 2-D __shared__ array at a row index that
// differs by lane (`auto dst = &shmem[idx][0];`, dmmaTensorCoreGemm's
// cg::memcpy_async kernel): shape.c took it as the same in every lane of
// a warp (the rows between the variable and the element carry no
// uniformity mark) and the generated C did not compile. Checked against
// the host.
#include <cstdio>

__device__ void put(double *d, const double *s, int lane) { d[lane] = s[lane] + 1; }

__global__ void k(const double *A, double *out) {
  extern __shared__ double shmem[][8];
  unsigned warpId = threadIdx.x / 32, laneId = threadIdx.x % 32;
  // 1 for the upper half of each warp, 0 for the lower (sizeof keeps the
  // divisor a constant expression the lowering does not fold)
  int half = laneId / (32 / ((32 * sizeof(int4)) / ((8 * 4) * sizeof(double))));
  for (int t = 0; t < 2; t++) {
    size_t idx = warpId * 4;
    idx += half;
    for (int i = 0; i < 2; i++) {
      auto dst = &shmem[idx][0];
      if (laneId % 16 < 8) put(dst, A + t * 8, laneId % 8);
      idx += 2;
    }
    __syncthreads();
    out[t * 64 + threadIdx.x] = shmem[threadIdx.x / 8][threadIdx.x % 8];
    __syncthreads();
  }
}

int main() {
  double *A, *o;
  cudaMallocManaged(&A, 16 * sizeof(double));
  cudaMallocManaged(&o, 128 * sizeof(double));
  for (int i = 0; i < 16; i++) A[i] = i * 0.5;
  k<<<1, 64, 8 * 8 * sizeof(double)>>>(A, o);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int t = 0; t < 2; t++)
    for (int x = 0; x < 64; x++) bad += o[t * 64 + x] != A[t * 8 + x % 8] + 1;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
