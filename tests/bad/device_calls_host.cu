// device_calls_host.cu: a kernel calls a host-only function (line 9); CUDA
// rejects this, and so must cucc, naming hostfn at file:line:col.
#include <cuda_runtime.h>

int hostfn(int v) { return v + 1; }

__global__ void k(int *out) {
  int i = threadIdx.x;
  out[i] = hostfn(i);
}

int main() {
  k<<<1, 32>>>(0);
  return 0;
}
