// remat.cu: values set once from thread and block indices and parameters
// (t, i, j below) are recomputed in every region that uses them instead of
// kept per thread. This uses them after barriers, in a uniform loop, in a
// block-level condition, in __syncthreads_count and in an early-return
// kernel, for block shapes that take each version of a region (1-D whole
// warps, whole rows, half rows, odd shapes), against a CPU reference.
#include <cstdio>
#include <cstdlib>

__global__ void uses(const int *a, int *o, int n, int k) {
  __shared__ int s[1024];
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int nt = blockDim.x * blockDim.y;
  int i = blockIdx.x * nt + t, j = i * 3 + k;
  s[t] = i < n ? a[i] : 0;
  __syncthreads();
  int acc = s[(t + 1) % nt];
  for (int r = 1; r < 4; r++) {
    __syncthreads();
    if (t % r == 0) acc += s[(t + r) % nt] + j;
  }
  int c = __syncthreads_count(j % 5 == 0);
  if (nt > 8 && t == 0) s[0] = c;          // block-level condition, then a barrier
  __syncthreads();
  if (i < n) o[i] = acc * 7 + s[0] + t;
}

__global__ void leave(int *o, int n) {
  int t = threadIdx.x + blockDim.x * threadIdx.y, i = blockIdx.x * blockDim.x * blockDim.y + t;
  if (i >= n) return;
  __syncthreads();
  o[i] += i - t;
}

static void host(const int *a, int *o, int n, int k, int nb, int nt) {
  int *s = (int *)malloc(nt * sizeof(int));
  for (int b = 0; b < nb; b++) {
    for (int t = 0; t < nt; t++) s[t] = b * nt + t < n ? a[b * nt + t] : 0;
    int c = 0;
    for (int t = 0; t < nt; t++) c += ((b * nt + t) * 3 + k) % 5 == 0;
    for (int t = 0; t < nt; t++) {
      int i = b * nt + t, j = i * 3 + k, acc = s[(t + 1) % nt];
      for (int r = 1; r < 4; r++)
        if (t % r == 0) acc += s[(t + r) % nt] + j;
      if (i < n) o[i] = acc * 7 + (nt > 8 ? c : s[0]) + t + (i - t);
    }
  }
  free(s);
}

int main() {
  const int shapes[][2] = {{64, 1}, {256, 1}, {32, 4}, {16, 6}, {7, 3}, {33, 2}, {1, 1}};
  int bad = 0;
  for (const auto &sh : shapes) {
    int nt = sh[0] * sh[1], nb = 5, n = nb * nt - 2, k = 11;
    int *a = (int *)malloc(n * sizeof(int)), *o = (int *)malloc(n * sizeof(int)), *r = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) a[i] = (i * 29) % 97 - 40;
    int *da, *dO;
    cudaMalloc(&da, n * sizeof(int));
    cudaMalloc(&dO, n * sizeof(int));
    cudaMemcpy(da, a, n * sizeof(int), cudaMemcpyHostToDevice);
    uses<<<nb, dim3(sh[0], sh[1])>>>(da, dO, n, k);
    leave<<<nb, dim3(sh[0], sh[1])>>>(dO, n);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("%s\nFAIL\n", cudaGetErrorString(err)); return 1; }
    cudaMemcpy(o, dO, n * sizeof(int), cudaMemcpyDeviceToHost);
    host(a, r, n, k, nb, nt);
    for (int i = 0; i < n; i++)
      if (o[i] != r[i] && bad++ < 5) printf("block (%d,%d): o[%d] = %d, want %d\n", sh[0], sh[1], i, o[i], r[i]);
    cudaFree(da); cudaFree(dO);
    free(a); free(o); free(r);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
