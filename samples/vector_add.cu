// vector_add.cu: c[i] = a[i] + b[i] on the device, checked against the host.
// Usage: vector_add [n]   (default n = 1<<20)
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
              #call, cudaGetErrorString(err_));                           \
      printf("FAIL\n");                                                   \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
  if (n <= 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 1;
  }
  size_t bytes = (size_t)n * sizeof(float);

  float *h_a = (float *)malloc(bytes);
  float *h_b = (float *)malloc(bytes);
  float *h_c = (float *)malloc(bytes);
  if (!h_a || !h_b || !h_c) {
    fprintf(stderr, "out of host memory\n");
    return 1;
  }
  for (int i = 0; i < n; i++) {
    h_a[i] = (float)i * 0.5f;
    h_b[i] = (float)(n - i) * 0.25f + 1.0f;
  }

  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc((void **)&d_a, bytes));
  CHECK(cudaMalloc((void **)&d_b, bytes));
  CHECK(cudaMalloc((void **)&d_c, bytes));
  CHECK(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_c, 0, bytes));

  const int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_c, d_c, bytes, cudaMemcpyDeviceToHost));

  printf("n = %d, %d blocks of %d threads\n", n, blocks, threads);
  for (int i = 0; i < n && i < 5; i++)
    printf("c[%d] = %g + %g = %g\n", i, h_a[i], h_b[i], h_c[i]);

  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = h_a[i] + h_b[i];
    if (h_c[i] != want) {
      if (bad < 10)
        printf("mismatch at %d: got %g, want %g\n", i, h_c[i], want);
      bad++;
    }
  }

  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  free(h_a);
  free(h_b);
  free(h_c);

  if (bad) {
    printf("%d of %d values differ\nFAIL\n", bad, n);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
