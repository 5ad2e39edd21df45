// case_in_if.cu: a case label inside an if of its switch (Duff's device)
// is not supported; cucc must say so at the label (line 12) as
// "file:line:col: error: unsupported ...", not fail inside the lowering.
#include <cuda_runtime.h>

__global__ void k(int *out, int big) {
  int t = threadIdx.x, r = 0;
  switch (t % 3) {
  case 0:
    if (big) {
      r = 1;
    case 1:
      r += 10;
    }
    break;
  default:
    r = 5;
  }
  out[t] = r;
}

int main() {
  k<<<1, 32>>>(0, 0);
  return 0;
}
