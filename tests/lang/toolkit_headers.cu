// toolkit_headers.cu: the CUDA toolkit headers programs include by name
// (cuComplex.h, vector_functions.h, builtin_types.h, math_functions.h,
// device_atomic_functions.h, channel_descriptor.h, device_types.h,
// sm_20_intrinsics.h, cuda_pipeline.h), each used in device code and
// checked against a CPU reference; and placement new without <new>, which
// nvcc's headers bring in.
#include <cstdio>
#include <cmath>
#include <cuComplex.h>
#include <vector_functions.h>
#include <builtin_types.h>
#include <math_functions.h>
#include <device_atomic_functions.h>
#include <channel_descriptor.h>
#include <device_types.h>
#include <sm_20_intrinsics.h>
#include <cuda_pipeline.h>

#define N 64

struct Acc {
  int n;
  __host__ __device__ Acc(int v) : n(v) {}
};

__global__ void kcplx(const float2 *a, const float2 *b, cuFloatComplex *o, cuDoubleComplex *od, float *ab) {
  int i = threadIdx.x;
  cuFloatComplex x = make_cuFloatComplex(cuCrealf(a[i]), cuCimagf(a[i])), y = make_cuComplex(b[i].x, b[i].y);
  o[i * 6 + 0] = cuCaddf(x, y);
  o[i * 6 + 1] = cuCsubf(x, y);
  o[i * 6 + 2] = cuCmulf(x, y);
  o[i * 6 + 3] = cuCdivf(x, y);
  o[i * 6 + 4] = cuConjf(x);
  o[i * 6 + 5] = cuCfmaf(x, y, x);
  ab[i] = cuCabsf(x);
  cuDoubleComplex dx = cuComplexFloatToDouble(x), dy = cuComplexFloatToDouble(y);
  od[i * 3 + 0] = cuCmul(dx, dy);
  od[i * 3 + 1] = cuCdiv(dx, dy);
  od[i * 3 + 2] = make_cuDoubleComplex(cuCabs(dx), cuCreal(cuConj(dy)) + cuCimag(cuCadd(dx, cuCsub(dy, dx))));
}

// the pipeline primitives staging through shared memory; placement new in
// a kernel; an atomic and the rounding modes' enum
__global__ void kpipe(const int4 *in, int4 *out, int *count, int *pn) {
  __shared__ int4 s[N];
  __shared__ char obj[sizeof(Acc)];
  int i = threadIdx.x;
  __pipeline_memcpy_async(&s[i], &in[i], sizeof(int4), i % 2 ? 8 : 0);   // odd: last 8 bytes zeroed
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = s[(i + 1) % N];
  atomicAdd(count, (int)cudaRoundZero);
  if (i == 0) *pn = (new (obj) Acc(41))->n + 1;
}

static int near(double a, double b, double tol) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

int main() {
  float2 *a, *b;
  cuFloatComplex *o;
  cuDoubleComplex *od;
  float *ab;
  int4 *in, *out;
  int *count, *pn;
  cudaMallocManaged(&a, N * sizeof *a);
  cudaMallocManaged(&b, N * sizeof *b);
  cudaMallocManaged(&o, 6 * N * sizeof *o);
  cudaMallocManaged(&od, 3 * N * sizeof *od);
  cudaMallocManaged(&ab, N * sizeof *ab);
  cudaMallocManaged(&in, N * sizeof *in);
  cudaMallocManaged(&out, N * sizeof *out);
  cudaMallocManaged(&count, sizeof *count);
  cudaMallocManaged(&pn, sizeof *pn);
  for (int i = 0; i < N; i++) {
    a[i] = make_float2(0.5f * i - 7, 3.0f - 0.25f * i);
    b[i] = make_float2(i % 5 - 2.5f, 0.125f * i + 1);
    in[i] = make_int4(i, 2 * i, 3 * i, 4 * i);
  }
  a[0] = make_float2(3e30f, 4e30f);   // |x| without overflow in between
  b[1] = make_float2(1e-30f, 2e-30f); // division by a tiny number: scaled
  *count = 0;
  kcplx<<<1, N>>>(a, b, o, od, ab);
  kpipe<<<1, N>>>(in, out, count, pn);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double xr = a[i].x, xi = a[i].y, yr = b[i].x, yi = b[i].y, d = yr * yr + yi * yi;
    double want[6][2] = {{xr + yr, xi + yi},
                         {xr - yr, xi - yi},
                         {xr * yr - xi * yi, xr * yi + xi * yr},
                         {(xr * yr + xi * yi) / d, (xi * yr - xr * yi) / d},
                         {xr, -xi},
                         {xr * yr - xi * yi + xr, xr * yi + xi * yr + xi}};
    for (int k = 0; k < 6; k++)
      if (!near(o[i * 6 + k].x, want[k][0], 1e-5) || !near(o[i * 6 + k].y, want[k][1], 1e-5)) {
        if (bad++ < 10) printf("float op %d of %d: (%g, %g) want (%g, %g)\n", k, i, o[i * 6 + k].x, o[i * 6 + k].y, want[k][0], want[k][1]);
      }
    if (!near(ab[i], std::hypot(xr, xi), 1e-6) && bad++ < 10) printf("cuCabsf %d: %g\n", i, ab[i]);
    if (!near(od[i * 3].x, want[2][0], 1e-14) || !near(od[i * 3].y, want[2][1], 1e-14) ||
        !near(od[i * 3 + 1].x, want[3][0], 1e-14) || !near(od[i * 3 + 1].y, want[3][1], 1e-14) ||
        !near(od[i * 3 + 2].x, std::hypot(xr, xi), 1e-15) || od[i * 3 + 2].y != yr + (xi + (yi - xi))) {
      if (bad++ < 10) printf("double ops of %d\n", i);
    }
    int j = (i + 1) % N;
    int4 w = make_int4(j, 2 * j, j % 2 ? 0 : 3 * j, j % 2 ? 0 : 4 * j);
    if ((out[i].x != w.x || out[i].y != w.y || out[i].z != w.z || out[i].w != w.w) && bad++ < 10)
      printf("pipeline copy %d: %d %d %d %d\n", i, out[i].x, out[i].y, out[i].z, out[i].w);
  }
  if (*count != N * (int)cudaRoundZero || *pn != 42) {
    printf("atomic %d, placement new %d\n", *count, *pn);
    bad++;
  }
  // placement new in host code, and the channel descriptor template
  alignas(Acc) char buf[sizeof(Acc)];
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float4>();
  if ((new (buf) Acc(7))->n != 7 || cd.x != 32 || cd.w != 32 || cd.f != cudaChannelFormatKindFloat) bad++;
  float3 f3 = make_float3(1, 2, 3);
  if (f3.z != 3) bad++;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
