// reduction.cu: the lecture notes' shared-memory sum reduction, both
// variants: the divergent one (t % (2*stride): active threads spread over
// all warps) and the less divergent one (t < stride: active threads packed
// into the first warps). Usage: ./reduction [count]   (default 1000000)
#include <cstdio>
#include <cstdlib>

#define BLOCK 512
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void reduce_divergent(const float *in, float *out, int n) {
  __shared__ float partialSum[BLOCK];
  unsigned int t = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + t;
  partialSum[t] = i < n ? in[i] : 0.0f;
  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % (2 * stride) == 0) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0];
}

__global__ void reduce_less_divergent(const float *in, float *out, int n) {
  __shared__ float partialSum[BLOCK];
  unsigned int t = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + t;
  partialSum[t] = i < n ? in[i] : 0.0f;
  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partialSum[0];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000000;
  if (n < 1) { printf("usage: reduction [count > 0]\n"); return 1; }
  int blocks = (n + BLOCK - 1) / BLOCK;
  float *h = (float *)malloc(n * sizeof(float)), *partial = (float *)malloc(blocks * sizeof(float));
  double host = 0;
  for (int i = 0; i < n; i++) { h[i] = (float)((i * 7919) % 1000) / 100.0f; host += h[i]; }
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, blocks * sizeof(float)));
  CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  double dev[2];
  for (int v = 0; v < 2; v++) {
    if (v == 0) reduce_divergent<<<blocks, BLOCK>>>(d_in, d_out, n);
    else reduce_less_divergent<<<blocks, BLOCK>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(partial, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    dev[v] = 0;
    for (int b = 0; b < blocks; b++) dev[v] += partial[b];
  }
  printf("n = %d, %d blocks of %d threads\n", n, blocks, BLOCK);
  printf("host sum:                  %.3f\n", host);
  printf("device sum (divergent):    %.3f\n", dev[0]);
  printf("device sum (less diverg.): %.3f\n", dev[1]);
  int ok = 1;
  for (int v = 0; v < 2; v++)
    if (!(fabs(dev[v] - host) <= 1e-5 * fabs(host) + 1e-3)) ok = 0;
  cudaFree(d_in); cudaFree(d_out); free(h); free(partial);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
