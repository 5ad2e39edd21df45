// bad_overload.cu: what stays refused of device-side launches of
// overloaded and template kernels (cucc wraps each launch for clang to
// resolve, frontend/cdp.c, but not one written in a macro's body), and
// clang's errors on a line holding a wrapped launch, at the user's columns.
__global__ void k(int *v, int a) { v[threadIdx.x] = a; }
__global__ void k(float *v, float a) { v[threadIdx.x] = a; }
template <int N> __global__ void t(int *v, int d) { v[d] = N; }
#define LAUNCH_T(v) t<4><<<1, 4>>>(v, 0)
__global__ void p(int *v) {
  LAUNCH_T(v);
  k<<<1, 4>>>(v, 7); k<<<1, 4>>>(v, "seven");
  t<4><<<1, 4>>>(v, 1); undeclared = 2;
}
int main() {
  p<<<1, 1>>>(0);
  return 0;
}
