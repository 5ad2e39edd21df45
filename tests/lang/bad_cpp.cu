// bad_cpp.cu: device-side constructs cucc refuses, each with its location.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Base0 { int a; };
struct Shape : virtual Base0 { __device__ float area() const { return 0; } };
__device__ float use(const Shape &s) { return s.area(); }

__device__ int early(int v) {   // (a guard, `if (v < 0) return 0;` first, inlines)
  for (int i = 0; i < 4; i++) { if (v < i) return 0; __syncthreads(); }
  return v;
}
__device__ int vote(int v) { return __any_sync(0xffffffff, v); }
template <class F> __device__ int apply(F f, int v) { return f(v); }

__global__ void k(int *o) {
  Shape s;
  o[0] = use(s);
  o[1] = early(o[2]);
  while (vote(o[threadIdx.x])) o[3]++;
  int base = o[4];
  o[5] = apply([&](int v) { return v + base; }, 3);
}
int main() { return 0; }
