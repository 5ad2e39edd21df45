// header_symbol.cu: __device__ and __constant__ variables defined in a
// header of the program's own are symbols too (cudaMemcpyToSymbol and
// cudaMemcpyFromSymbol find them), as those of the .cu itself.
#include <cstdio>
#include "inc/counter.cuh"

int main() {
  unsigned z = 5, *o, c = 0;
  int st[2] = {1, 2};
  cudaMalloc(&o, 64);
  cudaError_t e1 = cudaMemcpyToSymbol(counter, &z, sizeof z);
  cudaError_t e2 = cudaMemcpyToSymbol(step, st, sizeof st);
  bump<<<2, 32>>>(o);
  cudaError_t e3 = cudaMemcpyFromSymbol(&c, counter, sizeof c);
  printf("%s %s %s %u\n", cudaGetErrorName(e1), cudaGetErrorName(e2), cudaGetErrorName(e3), c);
  bool ok = !e1 && !e2 && !e3 && c == 5 + 2 * (16 * 1 + 16 * 2);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
