// heap.cu: malloc/free and new in device code take their memory from a
// device heap of cudaLimitMallocHeapSize bytes (8 MB unless set, as CUDA):
// past it malloc returns NULL, and so does new (device code has no
// exceptions); freed memory can be had again. isdigit
// and time need no #include: cuda_runtime.h brings in <ctype.h> and
// <time.h>, as nvcc's does.
#include <cstdio>
#include <new>

__global__ void grab(void **ptrs, size_t n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  char *p = (char *)malloc(n);
  if (p) {
    p[0] = (char)t;   // the memory is usable
    p[n - 1] = (char)t;
  }
  ptrs[t] = p;
}

__global__ void check_free(void **ptrs, int *ok, size_t n) {
  int t = threadIdx.x;
  char *p = (char *)ptrs[t];
  ok[t] = p ? (p[0] == (char)t && p[n - 1] == (char)t) : -1;
  free(p);   // free(NULL) is fine
}

struct Cell { int v; __device__ Cell(int x) : v(x) {} };

// new of an array past the heap: NULL, as for malloc; delete[] of it is fine
__global__ void grab_new(int **ptrs, size_t n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = new int[n];
  if (p) p[0] = p[n - 1] = t;
  ptrs[t] = p;
}

__global__ void check_delete(int **ptrs, int *ok, size_t n) {
  int t = threadIdx.x;
  int *p = ptrs[t];
  ok[t] = p ? (p[0] == t && p[n - 1] == t) : -1;
  delete[] p;
}

__global__ void placement(int *o) {
  __shared__ __align__(8) unsigned char buf[64 * sizeof(Cell)];
  Cell *c = new ((void *)(buf + threadIdx.x * sizeof(Cell))) Cell(threadIdx.x * 3);
  __syncthreads();
  o[threadIdx.x] = c->v + 1;
}

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL line %d: ", __LINE__); printf(__VA_ARGS__); printf("\n"); fails++; } } while (0)

int main() {
  size_t lim = 0;
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize) == cudaSuccess && lim == 8u << 20, "default heap %zu", lim);
  const size_t chunk = 256 << 10;   // 256 KB
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess, "set limit");
  CHECK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize) == cudaSuccess && lim == 1 << 20, "heap now %zu", lim);
  void **ptrs;
  int *ok;
  cudaMallocManaged(&ptrs, 64 * sizeof(void *));
  cudaMallocManaged(&ok, 64 * sizeof(int));
  for (int round = 0; round < 2; round++) {   // the second: the first's memory was freed
    grab<<<2, 4>>>(ptrs, chunk);   // 8 threads ask for 2 MB of a 1 MB heap
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "grab");
    int got = 0;
    for (int i = 0; i < 8; i++) got += ptrs[i] != NULL;
    CHECK(got == 4, "round %d: %d of 8 allocations of 256 KB in a 1 MB heap, want 4", round, got);
    check_free<<<1, 8>>>(ptrs, ok, chunk);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "free");
    for (int i = 0; i < 8; i++) CHECK(ok[i] == (ptrs[i] ? 1 : -1), "contents %d: %d", i, ok[i]);
  }
  int **iptrs;
  cudaMallocManaged(&iptrs, 64 * sizeof(int *));
  for (int round = 0; round < 2; round++) {   // new[] and delete[] alike
    grab_new<<<2, 4>>>(iptrs, chunk / sizeof(int));
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "grab_new");
    int got = 0;
    for (int i = 0; i < 8; i++) got += iptrs[i] != NULL;
    CHECK(got == 4, "round %d: new gave %d of 8 arrays of 256 KB in a 1 MB heap, want 4", round, got);
    check_delete<<<1, 8>>>(iptrs, ok, chunk / sizeof(int));
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "delete");
    for (int i = 0; i < 8; i++) CHECK(ok[i] == (iptrs[i] ? 1 : -1), "new's contents %d: %d", i, ok[i]);
  }
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);   // a larger heap: all fit
  grab<<<2, 4>>>(ptrs, chunk);
  cudaDeviceSynchronize();
  int got = 0;
  for (int i = 0; i < 8; i++) got += ptrs[i] != NULL;
  CHECK(got == 8, "%d of 8 in a 64 MB heap", got);
  check_free<<<1, 8>>>(ptrs, ok, chunk);
  cudaDeviceSynchronize();

  int *o;
  cudaMallocManaged(&o, 64 * sizeof(int));
  placement<<<1, 64>>>(o);
  cudaDeviceSynchronize();
  for (int i = 0; i < 64; i++) CHECK(o[i] == 3 * i + 1, "placement %d: %d", i, o[i]);
  CHECK(time(NULL) > 0 && isdigit('7'), "time");   // <time.h>, <ctype.h> through cuda_runtime.h
  if (fails) return 1;
  printf("PASS\n");
  return 0;
}
