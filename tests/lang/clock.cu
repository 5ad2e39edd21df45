// clock.cu: clock() in device code is CUDA's device overload (a counter
// that does not go backwards, as clock64()), while host code keeps the C
// library's clock().
#include <cstdio>
#include <ctime>

__global__ void timed(clock_t *t, long long *t64) {
  clock_t a = clock();
  long long a64 = clock64();
  int s = 0;
  for (int i = 0; i < 1000 + (int)threadIdx.x; i++) s += i;
  t[threadIdx.x] = clock() - a + (s == -1);
  t64[threadIdx.x] = clock64() - a64;
}

int main() {
  clock_t *d, h[32];
  long long *d64, h64[32];
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&d64, sizeof h64);
  clock_t c0 = clock();
  timed<<<1, 32>>>(d, d64);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(h64, d64, sizeof h64, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 32; i++) bad += h[i] < 0 || h64[i] < 0;
  bad += clock() < c0;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
