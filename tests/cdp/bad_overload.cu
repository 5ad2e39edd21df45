// bad_overload.cu: an overloaded or template kernel launched from device
// code is refused at the launch, saying why (clang's Sema, which parses
// for cucc, finds no viable kernel there; nvcc does).
__global__ void k(int *v, int a, int b);
__global__ void k(int *v, int a) { v[threadIdx.x] = a; }
template <int N> __global__ void t(int *v, int d) {
  if (d < 3) t<N><<<1, N>>>(v, d + 1);
}
__global__ void p(int *v) { k<<<1, 4>>>(v, 7); }
int main() {
  p<<<1, 1>>>(0);
  t<4><<<1, 4>>>(0, 0);
  return 0;
}
