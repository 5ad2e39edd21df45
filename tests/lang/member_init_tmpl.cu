// member_init_tmpl.cu: default member initializers of class templates that
// depend on the template's parameters (`T sum = T(0);`, `int n = N;`), as
// modern CUDA code writes accumulators and small buffers. libclang shows an
// implicit instance no fields; the instance's type has them, with the
// initializers Sema instantiated (they were refused before).
#include <cstdio>
#include <cuda_runtime.h>

template <typename T> struct Acc {
  T sum = T(0);
  T bias = T(1) / T(4);
  int n = (int)sizeof(T);
  __device__ void add(T v) { sum += v; n++; }
};

template <int N> struct Buf {
  float v[N] = {};
  int cap = N;
  int used = N / 2;
};

template <typename T, int K> struct Pair {
  Acc<T> a;                 // a member whose own initializers depend on T
  T scale = T(K);
  __device__ Pair(T s) : scale(s) {}   // a constructor that sets one, leaves the others
};

// not templates: an array member's list, members of a class type with
// initializers of their own (alone, in an array, beside a union)
struct In { int n = 3; float b = 0.5f; };
union U { int i; float f; };
struct W { In a; In arr[2]; int w[3] = {1, 2, 3}; U u; };

__global__ void plain_k(float *o) {
  W x;
  x.u.i = (int)threadIdx.x;
  x.arr[threadIdx.x % 2].n += 1;
  o[threadIdx.x] = x.a.n + x.a.b + x.arr[0].n + x.arr[1].b + x.w[0] + x.w[2] + x.u.i;
}

template <typename T> __global__ void acc_k(const T *x, T *out, int *cnt, int n) {
  Acc<T> a;
  for (int i = threadIdx.x; i < n; i += blockDim.x) a.add(x[i]);
  out[threadIdx.x] = a.sum + a.bias;
  cnt[threadIdx.x] = a.n;
}

__global__ void buf_k(int *o) {
  Buf<8> b;
  b.v[threadIdx.x % 8] += threadIdx.x;
  o[threadIdx.x] = b.cap * 100 + b.used * 10 + (int)b.v[threadIdx.x % 8] - (int)threadIdx.x + (int)b.v[(threadIdx.x + 1) % 8];
}

__global__ void pair_k(float *o) {
  Pair<float, 3> p(2.0f);
  Pair<double, 5> q(0.5);
  p.a.add((float)threadIdx.x);
  o[threadIdx.x] = p.scale * p.a.sum + p.a.bias + (float)(q.scale * q.a.bias) + (float)q.a.n + (float)p.a.n;
}

int main() {
  const int n = 200, t = 64;
  float hf[n];
  double hd[n];
  for (int i = 0; i < n; i++) hf[i] = hd[i] = i;
  float *xf, *of;
  double *xd, *od;
  int *c, *bo;
  cudaMalloc(&xf, sizeof hf); cudaMalloc(&xd, sizeof hd);
  cudaMalloc(&of, t * sizeof(float)); cudaMalloc(&od, t * sizeof(double));
  cudaMalloc(&c, 2 * t * sizeof(int)); cudaMalloc(&bo, t * sizeof(int));
  cudaMemcpy(xf, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(xd, hd, sizeof hd, cudaMemcpyHostToDevice);
  acc_k<float><<<1, t>>>(xf, of, c, n);
  acc_k<double><<<1, t>>>(xd, od, c + t, n);
  buf_k<<<1, t>>>(bo);
  float rf[t], rp[t];
  double rd[t];
  int rc[2 * t], rb[t];
  cudaMemcpy(rf, of, sizeof rf, cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, od, sizeof rd, cudaMemcpyDeviceToHost);
  cudaMemcpy(rc, c, sizeof rc, cudaMemcpyDeviceToHost);
  cudaMemcpy(rb, bo, sizeof rb, cudaMemcpyDeviceToHost);
  pair_k<<<1, t>>>(of);
  cudaMemcpy(rp, of, sizeof rp, cudaMemcpyDeviceToHost);
  float rw[t];
  plain_k<<<1, t>>>(of);
  cudaMemcpy(rw, of, sizeof rw, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < t; i++) {
    double s = 0;
    int k = 0;
    for (int j = i; j < n; j += t) s += j, k++;
    if (rf[i] != (float)s + 0.25f || rd[i] != s + 0.25 || rc[i] != 4 + k || rc[t + i] != 8 + k) bad++;
    if (rb[i] != 8 * 100 + 4 * 10) bad++;
    if (rp[i] != 2.0f * (float)i + 0.25f + (float)(0.5 * 0.25) + 8.0f + 5.0f) bad++;
    if (rw[i] != 3 + 0.5f + (i % 2 == 0 ? 4 : 3) + 0.5f + 1 + 3 + i) bad++;
  }
  if (bad) {
    printf("FAIL: %d wrong (acc %g %g cnt %d %d buf %d pair %g plain %g)\n", bad, rf[0], rd[0], rc[0], rc[t], rb[0], rp[0], rw[0]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
