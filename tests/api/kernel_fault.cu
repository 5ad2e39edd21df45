// A kernel that faults the CPU: a stray pointer in one block (a GPU's
// illegal address), or an integer division by zero (which a GPU computes
// to an undefined value without a trap). The program goes on: the block
// ends, the launch fails with CUDA's sticky error, named with the kernel
// and block on stderr; the other blocks' work and the host's are intact.
// __trap() ends its block as on a GPU.
// Usage: kernel_fault wild|sync|div|trap
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void wild(int *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *q = blockIdx.x == 2 ? (int *)(0x10 + (size_t)i * 4096) : p;   // block 2 strays
  q[i] = i;
}

__global__ void with_sync(int *p) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int *q = blockIdx.x == 1 && threadIdx.x == 5 ? (int *)0 : p;
  q[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void divide(const int *a, const int *d, int *out) {
  out[threadIdx.x] = a[threadIdx.x] / d[threadIdx.x];
}

__global__ void trapping(const int *in, int *out) {
  int v = in[threadIdx.x];
  if (v == 105) __trap();
  __nanosleep(100);
  out[threadIdx.x] = v * 2;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "wild";
  int *p, *d;
  cudaMallocManaged(&p, 4 * 64 * sizeof(int));
  cudaMallocManaged(&d, 64 * sizeof(int));
  for (int i = 0; i < 64; i++) p[i] = 100 + i, d[i] = i % 8;
  cudaDeviceSynchronize();
  cudaError_t want = cudaErrorIllegalAddress;
  if (!strcmp(what, "wild")) wild<<<4, 64>>>(p);
  else if (!strcmp(what, "sync")) with_sync<<<4, 64>>>(p);
  else if (!strcmp(what, "trap")) {
    trapping<<<1, 64>>>(p, p + 64);
    want = cudaErrorLaunchFailure;
  } else {
    divide<<<1, 64>>>(p, d, p + 64);
    want = cudaErrorLaunchFailure;
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("synchronize: %s\n", cudaGetErrorName(e));
  cudaError_t again = cudaMemset(p, 0, 4);   // sticky, as on a GPU
  printf("then: %s\n", cudaGetErrorName(again));
  int host = 0;
  for (int i = 0; i < 1000; i++) host += i;   // the host goes on
  if (e != want || again != want || host != 499500) {
    printf("FAIL\n");
    return 1;
  }
  printf("PASS\n");
  return 0;
}
