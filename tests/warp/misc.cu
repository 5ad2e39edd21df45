// misc.cu: the pre-Volta warp forms (__shfl, __shfl_down, __ballot, __any,
// __all), __ldg, clock()/clock64() that increase, _block/_system atomics,
// __syncwarp and the fences.
#include <cstdio>

__global__ void k(const int *in, int *out, long long *clk, int *cnt) {
  int t = threadIdx.x;
  long long c0 = clock64();
  int v = __ldg(&in[t]);
  out[t] = __shfl(v, 3) + __shfl_down(v, 1) * 100;
  out[32 + t] = (int)__ballot(t % 2 == 0);
  out[64 + t] = __any(t == 31) * 10 + __all(t < 32);
  __syncwarp();
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  atomicAdd_block(cnt, 1);
  atomicAdd_system(cnt + 1, 2);
  for (volatile int spin = 0; spin < 1000; spin++) {}
  long long c1 = clock64();
  if (t == 0) { clk[0] = c0; clk[1] = c1; }
}

int main() {
  int h[96], hin[32], *in, *out, *cnt, hc[2];
  long long *clk, hk[2];
  for (int i = 0; i < 32; i++) hin[i] = i * 2 + 1;
  cudaMalloc(&in, sizeof hin); cudaMalloc(&out, sizeof h); cudaMalloc(&clk, sizeof hk); cudaMalloc(&cnt, sizeof hc);
  cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);
  cudaMemset(cnt, 0, sizeof hc);
  k<<<1, 32>>>(in, out, clk, cnt);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hk, clk, sizeof hk, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, cnt, sizeof hc, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < 32; t++) {
    int down = t < 31 ? hin[t + 1] : hin[t];
    if (h[t] != hin[3] + down * 100) bad++;
    if ((unsigned)h[32 + t] != 0x55555555u) bad++;
    if (h[64 + t] != 11) bad++;
  }
  if (!(hk[1] > hk[0])) { printf("clock64 did not increase\n"); bad++; }
  if (hc[0] != 32 || hc[1] != 64) { printf("atomics %d %d\n", hc[0], hc[1]); bad++; }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
