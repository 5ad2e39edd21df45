// padding.cu: initcheck and a struct with padding. Written field by field
// (S: 7 bytes of padding at its end; curand_init's state: 36 bytes of
// fields, 4 of padding, a double) and
// then copied whole into a local, it is initialized: a GPU copies a struct
// field by field, and compute-sanitizer's initcheck reports nothing
// (cucc --check reported the padding, a held-out curand program's launch
// failed). `half`: one field never written: reported, as on the GPU.
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

struct S {
  int a[3];
  float f;      // 16 bytes
  double d;     // at 16
  char c;       // at 24, then 7 of padding
};

__global__ void fill(S *s, curandState *st, bool all) {
  int i = threadIdx.x;
  s[i].a[0] = i, s[i].a[1] = 2 * i, s[i].a[2] = 3 * i;
  s[i].f = 0.5f * i;
  if (all) s[i].d = 0.25 * i;
  s[i].c = (char)i;
  curand_init(1234ull, i, 0, &st[i]);
}

__global__ void use(const S *s, curandState *st, double *out) {
  int i = threadIdx.x;
  S v = s[i];                 // the whole struct, padding and all
  curandState r = st[i];      // curand's state, the same
  out[i] = v.a[0] + v.a[1] + v.a[2] + v.f + v.d + v.c + curand_uniform(&r);
  st[i] = r;
}

int main(int argc, char **argv) {
  bool half = argc > 1 && !strcmp(argv[1], "half");
  S *s;
  curandState *st;
  double *out;
  cudaMalloc(&s, 32 * sizeof(S));
  cudaMalloc(&st, 32 * sizeof(curandState));
  cudaMallocManaged(&out, 32 * sizeof(double));
  fill<<<1, 32>>>(s, st, !half);
  use<<<1, 32>>>(s, st, out);
  cudaError_t e = cudaDeviceSynchronize();
  int bad = e != cudaSuccess;
  for (int i = 0; i < 32 && !bad && !half; i++) {
    double want = 6.0 * i + 0.5 * i + 0.25 * i + i;
    bad |= !(out[i] > want && out[i] <= want + 1.0);
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad;
}
