// threadIdx, blockIdx, blockDim and gridDim used as a whole (`dim3 b =
// blockDim;`, `uint3 t = threadIdx;`, passed to a device function): the
// record of their three parts (refused before: "used as a whole").
#include <cstdio>
__device__ unsigned lin(uint3 t, dim3 b) { return t.x + b.x * (t.y + b.y * t.z); }
__global__ void k(unsigned *out) {
  uint3 t = threadIdx;
  dim3 b = blockDim;
  const dim3 g = gridDim;
  uint3 bi = blockIdx;
  unsigned id = lin(threadIdx, blockDim) + (bi.x + g.x * bi.y) * (b.x * b.y * b.z);
  out[id] = t.x * 100 + t.y * 10 + t.z;
}
int main() {
  unsigned *d; cudaMallocManaged(&d, 4 * 60 * 4);
  k<<<dim3(2, 2), dim3(5, 4, 3)>>>(d); cudaDeviceSynchronize();
  int bad = 0;
  for (int blk = 0; blk < 4; blk++) for (int z = 0; z < 3; z++) for (int y = 0; y < 4; y++) for (int x = 0; x < 5; x++)
    bad += d[blk * 60 + x + 5 * (y + 4 * z)] != (unsigned)(x * 100 + y * 10 + z);
  printf(bad ? "FAIL %d\n" : "PASS\n", bad);
}
