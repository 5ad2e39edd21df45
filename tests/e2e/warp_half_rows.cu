// warp_half_rows.cu: warp collectives in 16 x 4 blocks, whose warps are two half
// rows (the lowering's half-row version): ballot, shuffles across the rows.
#include <cstdio>
__global__ void k(unsigned *o) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int row = threadIdx.y * 10;
  unsigned b = __ballot_sync(0xffffffffu, threadIdx.x & 1);
  int v = __shfl_down_sync(0xffffffffu, t + row, 1);
  int w = __shfl_xor_sync(0xffffffffu, threadIdx.x, 16);
  o[t * 3] = b; o[t * 3 + 1] = v; o[t * 3 + 2] = w;
}
int main() {
  unsigned *d, h[64 * 3]; cudaMalloc(&d, sizeof h);
  k<<<1, dim3(16, 4)>>>(d); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 64; t++) {
    int l = t % 32, src = l < 31 ? t + 1 : t;
    unsigned wantv = src + (src / 16) * 10, wantw = (unsigned)(t % 16);
    if (h[t*3] != 0xaaaaaaaau || h[t*3+1] != wantv || h[t*3+2] != wantw) { bad++; printf("t=%d %x %u %u want %u %u\n", t, h[t*3], h[t*3+1], h[t*3+2], wantv, wantw); }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
