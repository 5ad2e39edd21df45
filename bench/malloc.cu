// bench/malloc.cu: what cudaMalloc and cudaFree cost (cudaMalloc's memory
// is runtime/src/arena.c's, shareable with other processes for CUDA IPC;
// before, it was malloc's). Per size: a cudaMalloc/cudaFree pair, the same
// with the memory written (cudaMemset: its first touch, page faults), and
// 10000 allocations live at once, then freed.
//   build/cucc -O2 bench/malloc.cu -o /tmp/malloc && /tmp/malloc
#include <cstdio>
#include <ctime>
#include <vector>
#include <cuda_runtime.h>

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main() {
  const size_t sizes[] = {256, 4096, 65536, 1 << 20, 16 << 20};
  void *p;
  cudaFree(0);
  printf("%10s %14s %18s %18s\n", "bytes", "malloc+free us", "+memset us", "10000 live us/each");
  for (size_t n : sizes) {
    int it = n >= (1 << 20) ? 200 : 20000;
    double t0 = now();
    for (int i = 0; i < it; i++) {
      cudaMalloc(&p, n);
      cudaFree(p);
    }
    double t1 = now();
    int it2 = n >= (16 << 20) ? 20 : 2000;
    for (int i = 0; i < it2; i++) {
      cudaMalloc(&p, n);
      cudaMemset(p, i, n);
      cudaFree(p);
    }
    double t2 = now();
    int live = n >= (1 << 20) ? 100 : 10000;
    std::vector<void *> v(live);
    for (int i = 0; i < live; i++) cudaMalloc(&v[i], n);
    for (int i = 0; i < live; i++) cudaFree(v[i]);
    double t3 = now();
    printf("%10zu %14.2f %18.2f %18.2f\n", n, (t1 - t0) / it * 1e6, (t2 - t1) / it2 * 1e6, (t3 - t2) / live * 1e6);
  }
  return 0;
}
