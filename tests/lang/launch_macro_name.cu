// launch_macro_name.cu: a launch whose kernel is a macro's expansion
// (`KERNEL_NAME<<<g, b>>>(x)`: a name, a qualified template instance, a
// template's name before its arguments, a ## paste, the <<< on the next
// line), the rest plain text; with -DBAD_NESTED, a #define holding only the
// configuration used inside another macro (`CHECK(BAD(d))`) is refused at
// the use, naming where the <<< is spelled.
#include <cstdio>
namespace ns { template <int N> __global__ void kt(int *p) { p[threadIdx.x] = N; } }
__global__ void k(int *p) { p[threadIdx.x] = 1; }
__global__ void k2(int *p) { p[threadIdx.x] = 2; }
#define KERNEL_NAME k
#define KT ns::kt<3>
#define KT2 ns::kt
#define PICK(a) k##a
#define BLOCK 4
int main() {
  int *d, h[4], bad = 0;
  cudaMalloc(&d, 16);
  KERNEL_NAME<<<1, BLOCK>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); bad += h[3] != 1;
  KT<<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); bad += h[3] != 3;
  KT2<5><<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); bad += h[3] != 5;
  PICK(2)<<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); bad += h[3] != 2;
  KERNEL_NAME
      <<<1, 4>>>(d);
  cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); bad += h[3] != 1;
#ifdef BAD_NESTED
#define CFG <<<1, 4>>>
#define CHECK(x) do { x; if (cudaGetLastError() != cudaSuccess) return 1; } while (0)
#define BAD(p) k CFG (p)
  CHECK(BAD(d));
#endif
  printf("%s %d\n", bad ? "FAIL" : "PASS", bad);
  return bad;
}
