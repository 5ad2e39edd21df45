// quote_include.cu: a quoted include finds the header next to the source
// before a same-named one in a -I folder (the cuda-samples' simpleCallback
// has multithreading.h both beside it and in Common/), in the device parse
// and in the host unit alike.
#include <cstdio>
#include "shadow.h"

__global__ void k(int *o) { *o = SHADOW_FROM; }

int main() {
  int *o;
  cudaMallocManaged(&o, sizeof(int));
  k<<<1, 1>>>(o);
  cudaDeviceSynchronize();
  int ok = *o == 1 && SHADOW_FROM == 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
