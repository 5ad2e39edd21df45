// block_prefetch.cu: which reads have the slice of the block two further on
// prefetched (a worker runs consecutive blocks; W_BPF in --dump-lir), and
// which not. lower_bpf reads the decisions; the program checks its sums.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void notes(const float *a, float *b) {   // a[i]: prefetched
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x, t = threadIdx.x;
  s[t] = a[i];
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) b[blockIdx.x] = s[0];
}

__global__ void first_add(const float *g, float *o) {   // both halves
  __shared__ float s[256];
  unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[t] = g[i] + g[i + blockDim.x];
  __syncthreads();
  if (t == 0) {
    float x = 0;
    for (int k = 0; k < 256; k++) x += s[k];
    o[blockIdx.x] = x;
  }
}

__global__ void gather(const int *idx, const float *a, float *o, int n) {   // idx[i] yes, a[idx[i]] no
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i;
  if (n < 0) j = 0;   // (two definitions: j is not substituted)
  o[i] = a[idx[i]] + a[j];
}

__global__ void looped(const float *a, float *o, int reps) {   // a read only inside a loop: not prefetched
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 0;
  for (int r = 0; r < reps; r++) x += a[i] * r;
  o[i] = x;
}

__global__ void rowptr(float *p, int pitch) {   // a local row pointer: not prefetched (declared after the top)
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  float *row = p + blockIdx.y * pitch;
  row[x] += 1.0f;
}

int main() {
  const int N = 1 << 16;
  float *a, *b, *o, h[N / 128];
  int *idx;
  cudaMallocManaged(&a, N * sizeof(float));
  cudaMallocManaged(&b, N * sizeof(float));
  cudaMallocManaged(&o, N * sizeof(float));
  cudaMallocManaged(&idx, N * sizeof(int));
  for (int i = 0; i < N; i++) a[i] = (float)(i % 7), idx[i] = (i * 5) % N;
  int fails = 0;
  notes<<<N / 256, 256>>>(a, b);
  first_add<<<N / 512, 256>>>(a, o);
  cudaDeviceSynchronize();
  for (int k = 0; k < N / 256; k++) {
    float w = 0;
    for (int i = 0; i < 256; i++) w += a[k * 256 + i];
    if (b[k] != w) fails++;
  }
  for (int k = 0; k < N / 512; k++) {
    float w = 0;
    for (int i = 0; i < 256; i++) w += a[k * 512 + i] + a[k * 512 + 256 + i];
    if (o[k] != w) fails++;
  }
  gather<<<N / 128, 128>>>(idx, a, o, N);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++)
    if (o[i] != a[idx[i]] + a[i]) fails++;
  looped<<<N / 128, 128>>>(a, o, 3);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++)
    if (o[i] != a[i] * 0 + a[i] * 1 + a[i] * 2) fails++;
  rowptr<<<dim3(N / 256 / 4, 4), 256>>>(o, N / 4);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++)
    if (o[i] != a[i] * 0 + a[i] * 1 + a[i] * 2 + 1.0f) fails++;
  (void)h;
  printf(fails ? "FAIL %d\n" : "PASS\n", fails);
  return fails != 0;
}
