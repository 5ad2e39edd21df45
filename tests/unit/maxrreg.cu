// maxrreg.cu: -maxrregcount=N caps the registers per thread cucc reports.
#include <cstdio>
#include <cstdlib>
__global__ void heavy(float *p) {
  float a = p[0], b = p[1], c = p[2], d = p[3], e = p[4], f = p[5], g = p[6], h = p[7];
  float i = a * b, j = c * d, k = e * f, l = g * h, m = i + j, n = k + l;
  p[threadIdx.x] = m * n + a + b + c + d + e + f + g + h + i + j + k + l;
}
int main(int argc, char **argv) {
  int cap = argc > 1 ? atoi(argv[1]) : 0;
  cudaFuncAttributes a;
  cudaFuncGetAttributes(&a, heavy);
  printf("numRegs %d (cap %d)\n", a.numRegs, cap);
  bool ok = a.numRegs > 0 && (cap == 0 ? a.numRegs > 16 : a.numRegs <= cap);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
