// std_math.cu: the std:: math functions of <cmath> and <cstdlib> in device
// code, in float, double and (abs) every integer type, as nvcc resolves
// them: std::sqrt(double) in a __device__ function used to be "call to
// 'sqrt' is ambiguous" (libstdc++'s using ::sqrt; ran before our device
// overloads existed). Each value is checked against the host's std:: call.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N 8
#define NF 48

template <class T> struct Res { T v[NF]; long long i[16]; int b[8]; };

template <class T> __device__ void dev_one(T x, Res<T> *r) {
  int k = 0;
  r->v[k++] = std::sqrt(x * x);
  r->v[k++] = std::exp(x / 4);
  r->v[k++] = std::fabs(x);
  r->v[k++] = std::sin(x);
  r->v[k++] = std::cos(x);
  r->v[k++] = std::tan(x / 4);
  r->v[k++] = std::log(1 + x * x);
  r->v[k++] = std::floor(x);
  r->v[k++] = std::ceil(x);
  r->v[k++] = std::trunc(x);
  r->v[k++] = std::round(x);
  r->v[k++] = std::acos(x / 8);
  r->v[k++] = std::asin(x / 8);
  r->v[k++] = std::atan(x);
  r->v[k++] = std::sinh(x / 4);
  r->v[k++] = std::cosh(x / 4);
  r->v[k++] = std::tanh(x);
  r->v[k++] = std::asinh(x);
  r->v[k++] = std::acosh(1 + x * x);
  r->v[k++] = std::atanh(x / 8);
  r->v[k++] = std::cbrt(x);
  r->v[k++] = std::exp2(x / 4);
  r->v[k++] = std::expm1(x / 4);
  r->v[k++] = std::log10(1 + x * x);
  r->v[k++] = std::log1p(x * x);
  r->v[k++] = std::log2(1 + x * x);
  r->v[k++] = std::logb(1 + x * x);
  r->v[k++] = std::erf(x / 4);
  r->v[k++] = std::erfc(x / 4);
  r->v[k++] = std::lgamma(1 + x * x);
  r->v[k++] = std::tgamma(1 + x * x / 8);
  r->v[k++] = std::rint(x);
  r->v[k++] = std::nearbyint(x);
  r->v[k++] = std::abs(x);
  r->v[k++] = std::pow(x, (T)2);
  r->v[k++] = std::atan2(x, (T)3);
  r->v[k++] = std::fmod(x, (T)1.5);
  r->v[k++] = std::hypot(x, (T)3);
  r->v[k++] = std::fmin(x, (T)0.5);
  r->v[k++] = std::fmax(x, (T)0.5);
  r->v[k++] = std::copysign((T)2, x);
  r->v[k++] = std::fma(x, (T)3, (T)0.25);
  r->v[k++] = std::fdim(x, (T)0.5);
  r->v[k++] = std::remainder(x, (T)1.5);
  r->v[k++] = std::ldexp(x, 3);
  int e;
  r->v[k++] = std::frexp(x, &e) + (T)e;
  T ip;
  r->v[k++] = std::modf(x, &ip) + 10 * ip;
  r->v[k++] = std::nextafter(x, (T)0) - x;
  r->i[0] = std::lround(x);
  r->i[1] = std::llround(x);
  r->i[2] = std::lrint(x);
  r->i[3] = std::llrint(x);
  r->i[4] = std::ilogb(1 + x * x);
  r->b[0] = std::isnan(x / x);
  r->b[1] = std::isinf(x);
  r->b[2] = std::isfinite(x);
  r->b[3] = std::signbit(x);
}

// the same calls, on the host, with libstdc++'s functions
template <class T> void host_one(T x, Res<T> *r) {
  int k = 0;
  r->v[k++] = std::sqrt(x * x);
  r->v[k++] = std::exp(x / 4);
  r->v[k++] = std::fabs(x);
  r->v[k++] = std::sin(x);
  r->v[k++] = std::cos(x);
  r->v[k++] = std::tan(x / 4);
  r->v[k++] = std::log(1 + x * x);
  r->v[k++] = std::floor(x);
  r->v[k++] = std::ceil(x);
  r->v[k++] = std::trunc(x);
  r->v[k++] = std::round(x);
  r->v[k++] = std::acos(x / 8);
  r->v[k++] = std::asin(x / 8);
  r->v[k++] = std::atan(x);
  r->v[k++] = std::sinh(x / 4);
  r->v[k++] = std::cosh(x / 4);
  r->v[k++] = std::tanh(x);
  r->v[k++] = std::asinh(x);
  r->v[k++] = std::acosh(1 + x * x);
  r->v[k++] = std::atanh(x / 8);
  r->v[k++] = std::cbrt(x);
  r->v[k++] = std::exp2(x / 4);
  r->v[k++] = std::expm1(x / 4);
  r->v[k++] = std::log10(1 + x * x);
  r->v[k++] = std::log1p(x * x);
  r->v[k++] = std::log2(1 + x * x);
  r->v[k++] = std::logb(1 + x * x);
  r->v[k++] = std::erf(x / 4);
  r->v[k++] = std::erfc(x / 4);
  r->v[k++] = std::lgamma(1 + x * x);
  r->v[k++] = std::tgamma(1 + x * x / 8);
  r->v[k++] = std::rint(x);
  r->v[k++] = std::nearbyint(x);
  r->v[k++] = std::abs(x);
  r->v[k++] = std::pow(x, (T)2);
  r->v[k++] = std::atan2(x, (T)3);
  r->v[k++] = std::fmod(x, (T)1.5);
  r->v[k++] = std::hypot(x, (T)3);
  r->v[k++] = std::fmin(x, (T)0.5);
  r->v[k++] = std::fmax(x, (T)0.5);
  r->v[k++] = std::copysign((T)2, x);
  r->v[k++] = std::fma(x, (T)3, (T)0.25);
  r->v[k++] = std::fdim(x, (T)0.5);
  r->v[k++] = std::remainder(x, (T)1.5);
  r->v[k++] = std::ldexp(x, 3);
  int e;
  r->v[k++] = std::frexp(x, &e) + (T)e;
  T ip;
  r->v[k++] = std::modf(x, &ip) + 10 * ip;
  r->v[k++] = std::nextafter(x, (T)0) - x;
  r->i[0] = std::lround(x);
  r->i[1] = std::llround(x);
  r->i[2] = std::lrint(x);
  r->i[3] = std::llrint(x);
  r->i[4] = std::ilogb(1 + x * x);
  r->b[0] = std::isnan(x / x);
  r->b[1] = std::isinf(x);
  r->b[2] = std::isfinite(x);
  r->b[3] = std::signbit(x);
}

struct Ints { int a; long b; long long c; double mixed; };

__global__ void kf(const float *in, Res<float> *r) { dev_one(in[threadIdx.x], &r[threadIdx.x]); }
__global__ void kd(const double *in, Res<double> *r) { dev_one(in[threadIdx.x], &r[threadIdx.x]); }
// std::abs of each integer type; and the global names beside them
__global__ void ki(const int *in, Ints *r) {
  int v = in[threadIdx.x];
  r[threadIdx.x].a = std::abs(v);
  r[threadIdx.x].b = std::abs((long)v * 100000L);
  r[threadIdx.x].c = std::abs((long long)v * 10000000000LL);
  r[threadIdx.x].mixed = sqrt((double)(v * v)) + std::labs((long)v) + std::llabs((long long)v);
}

// a __host__ __device__ function calling std::sqrt(double): both sides
__host__ __device__ double norm2(double x, double y) { return std::sqrt(x * x + y * y); }
__global__ void khd(double *o) { o[threadIdx.x] = norm2(threadIdx.x, 3.0); }

// the float functions may differ from the host's by CUDA's few ulp;
// the double ones and the exact ones (floor, fabs...) by none here, but a
// small relative bound keeps the test about resolution, not libm versions
template <class T> static int close(T a, T b, T tol) {
  if (a != a || b != b) return (a != a) == (b != b);
  if (a == b) return 1;
  T d = a - b, m = std::fabs(b) > 1 ? std::fabs(b) : 1;
  return std::fabs(d) <= tol * m;
}

template <class T> static int check(const char *what, const T *in, const Res<T> *dev, T tol) {
  int bad = 0;
  for (int j = 0; j < N; j++) {
    Res<T> h;
    host_one(in[j], &h);
    for (int k = 0; k < NF; k++)
      if (!close(dev[j].v[k], h.v[k], tol) && bad++ < 10)
        printf("%s x=%g: function %d: device %.17g host %.17g\n", what, (double)in[j], k, (double)dev[j].v[k],
               (double)h.v[k]);
    for (int k = 0; k < 5; k++)
      if (dev[j].i[k] != h.i[k] && bad++ < 10) printf("%s x=%g: integer %d: %lld vs %lld\n", what, (double)in[j], k, dev[j].i[k], h.i[k]);
    for (int k = 0; k < 4; k++)
      if (dev[j].b[k] != h.b[k] && bad++ < 10) printf("%s x=%g: class %d: %d vs %d\n", what, (double)in[j], k, dev[j].b[k], h.b[k]);
  }
  return bad;
}

int main() {
  const double xs[N] = {-2.5, -1.25, -0.0, 0.5, 1.5, 2.5, 3.75, 7.0};
  float *inf;
  double *ind, *ohd;
  int *ini;
  Res<float> *rf;
  Res<double> *rd;
  Ints *ri;
  cudaMallocManaged(&inf, N * sizeof *inf);
  cudaMallocManaged(&ind, N * sizeof *ind);
  cudaMallocManaged(&ini, N * sizeof *ini);
  cudaMallocManaged(&rf, N * sizeof *rf);
  cudaMallocManaged(&rd, N * sizeof *rd);
  cudaMallocManaged(&ri, N * sizeof *ri);
  cudaMallocManaged(&ohd, N * sizeof *ohd);
  for (int j = 0; j < N; j++) {
    inf[j] = (float)xs[j];
    ind[j] = xs[j];
    ini[j] = (int)(xs[j] * 4) - 3;
  }
  kf<<<1, N>>>(inf, rf);
  kd<<<1, N>>>(ind, rd);
  ki<<<1, N>>>(ini, ri);
  khd<<<1, N>>>(ohd);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  int bad = check("float", inf, rf, 4e-7f) + check("double", ind, rd, 1e-15);
  for (int j = 0; j < N; j++) {
    int v = ini[j];
    long long a = v < 0 ? -(long long)v : v;
    if (ri[j].a != a || ri[j].b != a * 100000L || ri[j].c != a * 10000000000LL || ri[j].mixed != 3.0 * a) {
      printf("abs(%d): %d %ld %lld %g\n", v, ri[j].a, ri[j].b, ri[j].c, ri[j].mixed);
      bad++;
    }
    if (ohd[j] != norm2(j, 3.0)) {
      printf("norm2(%d, 3): %g vs %g\n", j, ohd[j], norm2(j, 3.0));
      bad++;
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
