// histogram.cu: a 256-bin byte histogram. Each block counts into shared
// memory with shared-memory atomics, then adds its counts to the global
// histogram with global atomics.  Usage: ./histogram [n]
#include <cstdio>
#include <cstdlib>

#define BINS 256
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void histogram(const unsigned char *data, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000019;
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned int want[BINS] = {0}, got[BINS];
  unsigned s = 12345;
  for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; h[i] = (unsigned char)((s >> 16) % (i % 3 ? 256 : 17)); want[h[i]]++; }
  unsigned char *d;
  unsigned int *dh;
  CHECK(cudaMalloc(&d, n));
  CHECK(cudaMalloc(&dh, sizeof got));
  CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dh, 0, sizeof got));
  histogram<<<64, 256>>>(d, n, dh);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dh, sizeof got, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < BINS; b++)
    if (got[b] != want[b] && bad++ < 3) printf("bin %d: %u, want %u\n", b, got[b], want[b]);
  printf("%d bytes, bin 0: %u, bin 255: %u\n%s\n", n, got[0], got[255], bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}
