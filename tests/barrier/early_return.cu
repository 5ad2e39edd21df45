#include <initializer_list>
// early_return.cu: threads that return before a barrier take no part in it
// or in later regions; the others still synchronize and compute correctly.
#include <cstdio>

__global__ void rotate(int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t >= n) return;
  s[t] = t * 10;
  __syncthreads();
  int v = s[(t + 1) % n];
  __syncthreads();
  s[t] = v + 1;
  __syncthreads();
  out[t] = s[(t + n - 1) % n];
}

__global__ void counts(int *out) {
  int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t < 1000);
  int o;
  o = __syncthreads_or(t == 7);
  int none = __syncthreads_or(t > 5000);
  __threadfence_block();
  out[t] = c * 1000 + a * 100 + o * 10 + none;
}

int main() {
  int *d, h[256], fails = 0;
  cudaMalloc(&d, 256 * sizeof(int));
  for (int n : {1, 40, 100, 256}) {
    cudaMemset(d, 0xff, 256 * sizeof(int));
    rotate<<<1, 256>>>(d, n);
    cudaMemcpy(h, d, 256 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 256; t++) {
      int want = t < n ? (t % n) * 10 + 1 : -1;
      if (h[t] != want && fails++ < 5) printf("rotate n=%d t=%d: %d, want %d\n", n, t, h[t], want);
    }
  }
  counts<<<1, 100>>>(d);
  cudaMemcpy(h, d, 100 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 100; t++)
    if (h[t] != 34 * 1000 + 100 + 10 && fails++ < 5) printf("counts t=%d: %d\n", t, h[t]);
  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails ? 1 : 0;
}
