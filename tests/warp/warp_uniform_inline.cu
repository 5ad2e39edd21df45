// warp_uniform_inline.cu: warp_uniform.cu's warp-aggregated counter spelled in the
// kernel, int instead of unsigned, the leader written inline in the
// shuffle (`__shfl_sync(active, pos, __ffs(active) - 1)`): the same
// per-warp values and broadcast (tests/lower), the same answers.
#include <cstdio>
__global__ void filter_k(int *dst, int *nres, const int *src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n && src[i] > 0) {
    int active = (int)__activemask();
    int lane = threadIdx.x & 31;
    int pos;
    if (lane == __ffs(active) - 1) pos = atomicAdd(nres, __popc(active));
    pos = __shfl_sync(active, pos, __ffs(active) - 1);
    dst[pos + __popc(active & ((1 << lane) - 1))] = src[i];
  }
}
int main() {
  const int n = 100003; int *src, *dst, *cnt;
  cudaMallocManaged(&src, n * 4); cudaMallocManaged(&dst, n * 4); cudaMallocManaged(&cnt, 4);
  long long want = 0; int wn = 0;
  for (int i = 0; i < n; i++) { src[i] = (i * 7) % 5 < 2 ? i % 97 + 1 : -1; if (src[i] > 0) want += src[i], wn++; }
  *cnt = 0; filter_k<<<(n + 255) / 256, 256>>>(dst, cnt, src, n); cudaDeviceSynchronize();
  long long got = 0; for (int k = 0; k < *cnt; k++) got += dst[k];
  printf(*cnt == wn && got == want ? "PASS\n" : "FAIL %d %d\n", *cnt, wn); return 0;
}
