// __syncwarp(mask) with a mask that differs by lane (each half-warp syncs
// on its own half, legal from sm_70): the lanes' statements before it are
// all done before any lane's after it, in straight-line code and in a loop.
// It shared a lane loop with its neighbours, so lane 0 read lane 3's
// element before lane 3 wrote it: right only where the C compiler
// vectorized the loop whole (wrong with --cpu=portable, AVX2, --check;
// the held-out hunt).
#include <cstdio>

__global__ void straight(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  unsigned hm = (t & 16) ? 0xffff0000u : 0x0000ffffu;
  s[t] = in[t] * 2;
  __syncwarp(hm);
  out[t] = s[(t & ~15) + ((t + 3) & 15)];
}

__global__ void looped(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  unsigned hm = (t & 16) ? 0xffff0000u : 0x0000ffffu;
  int acc = 0;
  for (int r = 0; r < 4; r++) {
    s[t] = in[t] * (r + 1);
    __syncwarp(hm);
    acc += s[(t & ~15) + ((t + 3) & 15)];
    __syncwarp(hm);
  }
  out[t] = acc;
}

int main() {
  const int n = 64;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, 2 * n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = i * 3;
  straight<<<1, n>>>(in, out);
  looped<<<1, n>>>(in, out + n);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int t = 0; t < n; t++) {
    int src = in[(t & ~15) + ((t + 3) & 15)];
    if (out[t] != 2 * src && bad++ < 3) printf("straight: thread %d got %d, want %d\n", t, out[t], 2 * src);
    if (out[n + t] != 10 * src && bad++ < 6) printf("looped: thread %d got %d, want %d\n", t, out[n + t], 10 * src);
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
