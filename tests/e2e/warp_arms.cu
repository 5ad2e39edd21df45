// warp_arms.cu: warp collectives where nvcc accepts them (issue 20): in a
// __device__ function (no inlining), in an arm of ?: or &&, under the
// mask of the lanes that take the arm; shuffles of a whole warp by a
// uniform offset as one lane loop. Well-defined uses only: a shuffle's
// mask names exactly the lanes that run it.
#include <cstdio>

__device__ float sum32(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);   // every lane ends with the sum
  return v;
}
__device__ int prefix16(int v, int lane) {   // an inclusive scan of lanes 0..15 of a warp
  for (int d = 1; d < 16; d *= 2) {
    int u = __shfl_up_sync(0x0000ffffu, v, d, 16);
    if (lane >= d) v += u;
  }
  return v;
}

__global__ void arms(const float *a, float *sums, int *scan, float *pair, int *bits) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = a[t];
  float s = sum32(v);
  sums[t] = lane == 0 ? s : 0;
  sums[t] += warp % 2 == 0 ? __shfl_xor_sync(0xffffffffu, v, 1) : -1;   // whole warps take the arm or not
  sums[t] += warp % 2 == 1 ? sum32(2 * v) : 0;   // a call in an arm
  scan[t] = lane < 16 ? prefix16((int)v, lane) : -1;   // half a warp, its own mask
  pair[t] = lane < 16 && __shfl_down_sync(0x0000ffffu, v, 1, 16) > 3 ? 1 : 0;
  bits[t] = __ballot_sync(0xffffffffu, v > 2);
  pair[t] += 10 * __shfl_down_sync(0xffffffffu, v, 3);
}

int main() {
  const int N = 512;
  float *a, *sums, *pair;
  int *scan, *bits, fails = 0;
  cudaMallocManaged(&a, N * 4); cudaMallocManaged(&sums, N * 4); cudaMallocManaged(&pair, N * 4);
  cudaMallocManaged(&scan, N * 4); cudaMallocManaged(&bits, N * 4);
  for (int i = 0; i < N; i++) a[i] = (i * 5) % 7;
  int blocks[] = {64, 128, 256};
  for (int nb : blocks) {
    arms<<<N / nb, nb>>>(a, sums, scan, pair, bits);
    cudaDeviceSynchronize();
    for (int t = 0; t < N; t++) {
      int l = t % 32, base = t - l, w = (t % nb) / 32;
      float tot = 0;
      unsigned b = 0;
      for (int j = 0; j < 32; j++) tot += a[base + j], b |= (unsigned)(a[base + j] > 2) << j;
      float e = (l == 0 ? tot : 0) + (w % 2 == 0 ? a[t ^ 1] : -1) + (w % 2 == 1 ? 2 * tot : 0);
      int sc = -1;
      if (l < 16) { sc = 0; for (int j = 0; j <= l; j++) sc += (int)a[base + j]; }
      float pr = l < 15 ? (a[t + 1] > 3) : l == 15 ? pair[t] - 10 * a[t + 3] : 0;   // lane 15's source is outside its mask: undefined
      pr += 10 * (l + 3 < 32 ? a[t + 3] : a[t]);
      if ((sums[t] != e || scan[t] != sc || pair[t] != pr || (unsigned)bits[t] != b) && fails++ < 5)
        printf("FAIL block %d thread %d: %g %d %g %x, expected %g %d %g %x\n", nb, t, sums[t], scan[t], pair[t],
               (unsigned)bits[t], e, sc, pr, b);
    }
  }
  printf(fails ? "FAIL\n" : "PASS\n");
  return fails != 0;
}
