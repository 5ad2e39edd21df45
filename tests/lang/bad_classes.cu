// bad_classes.cu: what cucc still refuses of classes in device code,
// each at the user's line.
#include <new>
struct T { int v; __device__ T(int x) : v(x) {} __device__ virtual ~T() { v = 0; } };
struct U : T { __device__ U(int x) : T(x) {} };
__device__ void *operator new(size_t, void *a, void *b) { return a ? a : b; }
__device__ U make(int x) { return U(x); }

__global__ void k(int *o, char *buf) {
  T *q = new (buf, buf + 8) T(3);
  o[2] = q->v;
  T t = make(o[0]);
  o[3] = t.v;
}
int main() { return 0; }
