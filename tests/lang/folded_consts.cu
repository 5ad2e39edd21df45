// Constants clang folds and names a kernel's body declares (a held-out
// hunt: refused, one as "expression (C++ construct)", one as
// "SizeOfPackExpr"): offsetof and __builtin_offsetof, sizeof...(T) of a
// variadic device function, `using namespace std;`, `using std::max;`
// and a namespace alias inside device code. Checked against the host.
#include <cstddef>
#include <cstdio>
#include <algorithm>

namespace geo { struct P { char tag; double x, y; int id; }; }

template <typename... T> __device__ int count(T...) { return (int)sizeof...(T); }

__device__ int biggest(int a, int b) {
  using std::max;
  return max(a, b);
}

__global__ void k(size_t *o, const int *v) {
  using namespace std;
  namespace g = geo;
  o[0] = offsetof(g::P, y);
  o[1] = __builtin_offsetof(geo::P, id);
  o[2] = count(1, 2.0, 'c', v);
  o[3] = biggest(v[0], v[1]) + min(v[0], v[1]);
}

int main() {
  size_t *o;
  int *v;
  cudaMallocManaged(&o, 4 * sizeof(size_t));
  cudaMallocManaged(&v, 2 * sizeof(int));
  v[0] = 7;
  v[1] = 3;
  k<<<1, 1>>>(o, v);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  bad += o[0] != offsetof(geo::P, y) || o[1] != offsetof(geo::P, id) || o[2] != 4 || o[3] != 10;
  printf("%s %zu %zu %zu %zu\n", bad ? "FAIL" : "PASS", o[0], o[1], o[2], o[3]);
  return bad != 0;
}
