// cpp.cu: C++ in device code against a CPU reference: references
// (parameters, locals, returns), overloading, namespaces, classes with
// member functions, constructors and in-class initializers, free and
// member operators (vector helpers in the style programs include), static
// members, constexpr, auto, templates of device functions and lambdas
// defined in kernels. The same code runs on the host as the reference.
#include <cstdio>
#include <cuda_runtime.h>

struct vec2 { float x, y; };
__host__ __device__ inline vec2 mk(float x, float y) { vec2 r; r.x = x; r.y = y; return r; }
__host__ __device__ inline vec2 operator+(vec2 a, vec2 b) { return mk(a.x + b.x, a.y + b.y); }
__host__ __device__ inline vec2 operator*(vec2 a, float s) { return mk(a.x * s, a.y * s); }
__host__ __device__ inline vec2 operator-(vec2 a) { return mk(-a.x, -a.y); }
__host__ __device__ inline void operator+=(vec2 &a, vec2 b) { a.x += b.x; a.y += b.y; }
__host__ __device__ inline float dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }

namespace geo {
constexpr int K = 3;
__host__ __device__ inline int sq(int x) { return x * x + 1; }     // overloads
__host__ __device__ inline float sq(float x) { return x * x; }
namespace inner { __host__ __device__ inline int cube(int x) { return x * sq(x); } }
}

__host__ __device__ inline void bump(int &r, int by) { r += by; }
__host__ __device__ inline void swap2(float &a, float &b) { float t = a; a = b; b = t; }
__host__ __device__ inline int &pick(int &a, int &b, bool first) { return first ? a : b; }
__host__ __device__ inline float sum3(const float &a, const float &b, const float &c) { return a + b + c; }

template <class T> __host__ __device__ T twice(T x) { return x + x; }
template <int N> __host__ __device__ int times(int x) { return N * x; }

class Acc {
  float sum = 0.5f;   // in-class initializer
  int n;
public:
  static constexpr int limit = 1000;
  __host__ __device__ Acc(int start) : n(start) {}
  __host__ __device__ void add(float v) { if (n < limit) { sum += v; n++; } }
  __host__ __device__ float mean() const { return n ? sum / n : 0; }
  __host__ __device__ int count() const { return n; }
  __host__ __device__ float &total() { return sum; }
  __host__ __device__ Acc &operator<<(float v) { add(v); return *this; }
};

struct Cplx {
  float re, im;
  __host__ __device__ Cplx(float r, float i) : re(r), im(i) {}
  __host__ __device__ Cplx operator*(const Cplx &o) const { return Cplx(re * o.re - im * o.im, re * o.im + im * o.re); }
  __host__ __device__ Cplx &operator+=(const Cplx &o) { re += o.re; im += o.im; return *this; }
  __host__ __device__ float norm() const { return re * re + im * im; }
  __host__ __device__ float scaled_norm(float s) const { return s * norm(); }   // implicit this
};

struct Counter {
  int *slot;
  __host__ __device__ explicit Counter(int *p) : slot(p) { *slot = 0; }
  __host__ __device__ void hit() { ++*slot; }
};

#define NOUT 8
__host__ __device__ void work(int i, float *o) {
  vec2 a = mk(1.0f * i, 2.0f);
  vec2 b = a + a * 2.0f;
  b += -a * 0.5f;
  o[0] = dot(a, b);
  int v = i;
  bump(v, geo::K);
  int &rv = v;
  rv *= 2;
  int w = 7;
  pick(v, w, i % 2 == 0) += 100;
  float p = (float)i, q = 1.5f;
  swap2(p, q);
  o[1] = v + w + p * 10 + q + sum3(p, q, 2.0f);
  auto s = geo::sq((float)i) + geo::sq(i) + geo::inner::cube(i % 5);
  o[2] = s + twice(1.25f) + twice(i) + times<4>(i);
  Acc acc(0);
  for (int j = 0; j <= i % 7; j++) acc.add(j);
  acc << 10.f << 20.f;
  acc.total() += 1;
  o[3] = acc.mean() + acc.count() + Acc::limit;
  Cplx c(1, i % 4), d = c * c;
  d += Cplx(0.5f, -1);
  o[4] = d.norm() + Cplx(2, 0).scaled_norm(0.25f);
  int hits;
  Counter cnt(&hits);
  for (int j = 0; j < i % 3 + 1; j++) cnt.hit();
  o[5] = hits;
}

__global__ void kernel(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  work(i, out + i * NOUT);
  // lambdas defined in the kernel: captures by reference and by value
  float base = out[i * NOUT];
  int calls = 0;
  auto scale = [&](float f) { return f * base + i; };
  auto count = [&]() { calls += 2; };
  auto add = [=](int a, int b) { return a + b + i; };
  count();
  count();
  out[i * NOUT + 6] = scale(1.5f) + calls;
  out[i * NOUT + 7] = add(3, 4);
}

// constructors defined outside their class, with member initializers (as
// cuda-samples' interval writes interval_gpu<T>): the class named before
// the constructor's name is no base initializer
template <class T> struct Ival {
  T lo, hi;
  __device__ Ival(T const &l, T const &h);
  __device__ Ival(T const &v);
};
template <class T> __device__ Ival<T>::Ival(T const &l, T const &h) : lo(l), hi(h) {}
template <class T> __device__ Ival<T>::Ival(T const &v) : lo(v), hi(v + 1) {}
struct Pair {
  int a, b;
  __device__ Pair(int x);
};
__device__ Pair::Pair(int x) : a(x), b(2 * x) {}

__global__ void outside(int *o) {
  int t = threadIdx.x;
  Ival<float> u(t, t * 3.0f), v(t * 5.0f);
  Pair p(t + 7);
  o[t] = (int)(u.lo + 10 * u.hi + 100 * v.lo + 1000 * v.hi) + 100000 * p.a + 1000000 * p.b;
}

int main() {
  const int n = 77;
  {
    int *o, h[8];
    cudaMalloc(&o, sizeof h);
    outside<<<1, 8>>>(o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 8; t++)
      if (h[t] != t + 30 * t + 500 * t + 1000 * (5 * t + 1) + 100000 * (t + 7) + 1000000 * 2 * (t + 7)) {
        printf("FAIL: constructor defined outside its class, thread %d: %d\n", t, h[t]);
        return 1;
      }
  }
  float *d;
  cudaMalloc(&d, n * NOUT * sizeof(float));
  kernel<<<(n + 31) / 32, 32>>>(d, n);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL: launch\n"); return 1; }
  static float got[n * NOUT], want[NOUT];
  cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n && bad < 5; i++) {
    work(i, want);
    want[6] = 1.5f * want[0] + i + 4;
    want[7] = 3 + 4 + i;
    for (int k = 0; k < NOUT; k++)
      if (got[i * NOUT + k] != want[k]) {
        printf("thread %d value %d: %g, expected %g\n", i, k, got[i * NOUT + k], want[k]);
        bad++;
      }
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
