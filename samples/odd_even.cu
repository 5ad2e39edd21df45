// odd_even.cu: the even/odd branch kernel of the lecture notes. Even and odd
// threads of each warp take different branches, so every warp diverges.
// Run with several block sizes, including partial warps and a partial last
// block, and check against the host.
// Usage: odd_even [n]   (default n = 10007)
#include <cstdio>
#include <cstdlib>
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

// As in the notes: the parity of the global index picks the branch.
__global__ void odd_even(int n, int *x) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    if ((i & 0x01) == 0) {
      x[i] = x[i] + 1;
    } else {
      x[i] = x[i] + 2;
    }
  }
}

// The same on the parity of threadIdx.x, recording which path ran.
__global__ void odd_even_tid(int n, int *x, int *path) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x % 2 == 0) {
    x[i] = x[i] * 3;
    path[i] = 10 + blockIdx.x;
  } else {
    x[i] = x[i] - 7;
    path[i] = -(int)threadIdx.x;
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10007;
  if (n <= 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 1;
  }
  size_t bytes = (size_t)n * sizeof(int);
  int *h_x = (int *)malloc(bytes);
  int *h_out = (int *)malloc(bytes);
  int *h_path = (int *)malloc(bytes);
  int *d_x, *d_path;
  CHECK(cudaMalloc((void **)&d_x, bytes));
  CHECK(cudaMalloc((void **)&d_path, bytes));

  const int sizes[] = {1, 2, 17, 32, 33, 96, 100, 256, 1000, 1024};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  int bad = 0;

  for (int s = 0; s < nsizes; s++) {
    int threads = sizes[s];
    int blocks = (n + threads - 1) / threads;
    for (int i = 0; i < n; i++)
      h_x[i] = i * 5 - 1000;

    // lecture kernel
    CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    odd_even<<<blocks, threads>>>(n, d_x);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_x, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int want = h_x[i] + ((i & 1) == 0 ? 1 : 2);
      if (h_out[i] != want) {
        if (bad < 10)
          printf("odd_even, %d threads/block: x[%d] = %d, want %d\n",
                 threads, i, h_out[i], want);
        bad++;
      }
    }

    // threadIdx.x parity
    CHECK(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_path, 0, bytes));
    odd_even_tid<<<blocks, threads>>>(n, d_x, d_path);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_x, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_path, d_path, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      int tid = i % threads, bid = i / threads;
      int want = tid % 2 == 0 ? h_x[i] * 3 : h_x[i] - 7;
      int want_path = tid % 2 == 0 ? 10 + bid : -tid;
      if (h_out[i] != want || h_path[i] != want_path) {
        if (bad < 10)
          printf("odd_even_tid, %d threads/block: x[%d] = %d path %d, want %d path %d\n",
                 threads, i, h_out[i], h_path[i], want, want_path);
        bad++;
      }
    }
    printf("%4d threads/block, %5d blocks: %s\n", threads, blocks,
           bad ? "errors so far" : "ok");
  }

  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_path));
  free(h_x);
  free(h_out);
  free(h_path);
  if (bad) {
    printf("%d mismatches\nFAIL\n", bad);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
