// Warp collectives on both sides of &&, || and ?: (a held-out hunt: refused
// as "a condition with side effects"): the left one is computed before the
// statement, so it can be read again for the right one's lanes. Checked
// against the host (each warp's votes computed there).
#include <cstdio>
#define F 0xffffffffu

__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, v = in[t];
  if (__all_sync(F, v >= 0) && __any_sync(F, v == 3)) out[4 * t] = 1;
  else out[4 * t] = 0;
  out[4 * t + 1] = __any_sync(F, v > 60) || __all_sync(F, v < 40) ? 1 : 2;
  out[4 * t + 2] = __ballot_sync(F, v == 70) ? __shfl_sync(F, v, 3) : -1;
  out[4 * t + 3] = !__any_sync(F, v == 5) && __popc(__ballot_sync(F, v & 1)) == 16;
}

int main() {
  const int n = 96;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, 4 * n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = i;
  k<<<1, n>>>(in, out);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int w = 0; w < n / 32; w++) {
    int all0 = 1, any3 = 0, any60 = 0, all40 = 1, any70 = 0, any5 = 0, odd = 0;
    for (int l = 0; l < 32; l++) {
      int v = in[w * 32 + l];
      all0 &= v >= 0, any3 |= v == 3, any60 |= v > 60, all40 &= v < 40, any70 |= v == 70, any5 |= v == 5, odd += v & 1;
    }
    int r[4] = {all0 && any3, any60 || all40 ? 1 : 2, any70 ? in[w * 32 + 3] : -1, !any5 && odd == 16};
    for (int l = 0; l < 32; l++)
      for (int j = 0; j < 4; j++)
        if (out[4 * (w * 32 + l) + j] != r[j] && bad++ < 10)
          printf("thread %d [%d]: %d, expected %d\n", w * 32 + l, j, out[4 * (w * 32 + l) + j], r[j]);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
