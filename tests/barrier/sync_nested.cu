// sync_nested.cu: barriers in nested blocks, as inlining leaves them (a
// device function with __syncthreads() is a block in its caller): the
// blocks are spliced into their lists (region.c), so the statements
// around a block and those of its first and last regions share regions.
// Locals of the same name in sibling blocks, one declared without a value,
// a declaration group whose initializers hold barriers, a block in a loop
// body and in a uniform if. Blocks of 96 (three warps) and 64.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 6
#define MAXB 96

/* a neighbour's value through shared memory: a barrier on either side */
__device__ int swap_nb(int *sh, int v) {
  int t = threadIdx.x;
  sh[t] = v;
  __syncthreads();
  int r = sh[t ^ 1];
  __syncthreads();
  return r;
}

__global__ void nested(const int *in, int *out, int u) {
  __shared__ int sh[MAXB];
  int t = threadIdx.x, n = blockDim.x;
  int i = blockIdx.x * n + t;
  int *r = out + i * K;
  int a = in[i] * 3;
  {
    int x = a + 1;
    sh[t] = x;
    __syncthreads();
    int y = sh[(t + 1) % n];
    r[0] = y - x;
    __syncthreads();
  }
  {
    int x = a - t;   /* (another x) */
    int late;
    sh[t] = x;
    __syncthreads();
    late = sh[n - 1 - t];
    r[1] = late + x;
  }
  __syncthreads();   /* (sh is written next) */
  int p = swap_nb(sh, a), q = swap_nb(sh, a + t);
  r[2] = p * 7 + q;
  int acc = 0;
  for (int k = 0; k < 3; k++) {
    {
      int z = a + k;
      sh[t] = z;
      __syncthreads();
      acc += sh[(t + k) % n] - z;
    }
    __syncthreads();
  }
  r[3] = acc;
  int w = 0;
  if (u > 1) {
    {
      int z = a * u;
      sh[t] = z;
      __syncthreads();
      w = sh[(t + 2) % n] + z;
    }
    __syncthreads();
  } else w = -1;
  r[4] = w;
  r[5] = t * 2 + a;
}

static int val(int i) { return (int)((i * 2654435761u) >> 20) % 1000 - 500; }

static int run(int nb, int bs, int u) {
  int n = nb * bs;
  int *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * K * sizeof(int)));
  for (int i = 0; i < n; i++) in[i] = val(i);
  nested<<<nb, bs>>>(in, out, u);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < bs; t++) {
      int i = b * bs + t, *r = out + i * K;
      int A[MAXB];
      for (int s = 0; s < bs; s++) A[s] = in[b * bs + s] * 3;
      int a = A[t];
      int want[K];
      want[0] = (A[(t + 1) % bs] + 1) - (a + 1);
      want[1] = (A[bs - 1 - t] - (bs - 1 - t)) + (a - t);
      want[2] = A[t ^ 1] * 7 + (A[t ^ 1] + (t ^ 1));
      int acc = 0;
      for (int k = 0; k < 3; k++) acc += (A[(t + k) % bs] + k) - (a + k);
      want[3] = acc;
      want[4] = u > 1 ? A[(t + 2) % bs] * u + a * u : -1;
      want[5] = t * 2 + a;
      for (int j = 0; j < K; j++)
        if (r[j] != want[j] && bad++ < 10)
          printf("block %d thread %d r[%d] = %d, want %d (u %d)\n", b, t, j, r[j], want[j], u);
    }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return bad;
}

int main() {
  int bad = run(5, 96, 2) + run(3, 64, 1) + run(2, 96, 0);
  if (bad) {
    printf("FAIL: %d wrong\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
