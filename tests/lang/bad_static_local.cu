// bad_static_local.cu: what device code may not name is refused by name:
// a function-scope static whose initializer is not a constant, and a host
// variable (neither __device__, __constant__ nor __managed__).
__device__ int g(int i) {
  int x = 3; static int *r = &x;
  return i + *r;
}
int h;
__global__ void k(int *o) { o[0] = g(1) + h; }
int main() { k<<<1, 1>>>(0); return 0; }
