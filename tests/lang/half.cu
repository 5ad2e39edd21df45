// half.cu: __half and __half2 (cuda_fp16.h) in device code. Every one of
// the 65536 half bit patterns is converted to float and back and every
// midpoint between neighbouring halves is rounded (to even), checked against
// a reference computed with ldexp on the CPU; then half and half2 arithmetic,
// operators, comparisons and conversions in a kernel against the same
// operations on the host (which rounds through float as a GPU rounds).
#include <cmath>
#include <cstdio>
#include <cuda_fp16.h>

static float ref_value(unsigned h) {   // binary16 bits -> value, independently
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m + 1024), e - 25);
  return s ? -v : v;
}

__global__ void convert(float *val, unsigned short *back, unsigned short *mid) {
  unsigned h = blockIdx.x * blockDim.x + threadIdx.x;
  float f = __half2float(__ushort_as_half((unsigned short)h));
  val[h] = f;
  back[h] = __half_as_ushort(__float2half(f));
  // the midpoint towards the next half of larger magnitude
  float g = __half2float(__ushort_as_half((unsigned short)(h + 1)));
  mid[h] = __half_as_ushort(__float2half_rn(f + (g - f) / 2));
}

__global__ void arith(const half2 *a, const half2 *b, float *o, half *hs) {
  int i = threadIdx.x;
  half2 v(0.f, 0.f);
  v = __hfma2(a[i], b[i], v);
  half2 w = a[i] + b[i] * a[i] - __hmul2(a[i], a[i]);
  half h = __float2half(1.5f) * hs[i] + __low2half(w);
  h += __high2half(w);
  float f = h;
  o[i * 4] = __low2float(v) + __high2float(v);
  o[i * 4 + 1] = f + (h > __float2half(3.f) ? 100.f : 0.f) + (__hlt(h, hs[i]) ? 1000.f : 0.f);
  o[i * 4 + 2] = __half2float(__hdiv(hs[i], __int2half_rn(i + 1))) + __half2int_rn(h);
  o[i * 4 + 3] = __half2float(hsqrt(__habs(-h)));
  hs[i] = -h;
}

int main() {
  const int n = 65536;
  float *val;
  unsigned short *back, *mid;
  cudaMallocManaged(&val, n * sizeof(float));
  cudaMallocManaged(&back, n * 2);
  cudaMallocManaged(&mid, n * 2);
  convert<<<n / 256, 256>>>(val, back, mid);
  cudaDeviceSynchronize();
  int bad = 0;
  for (unsigned h = 0; h < (unsigned)n && bad < 10; h++) {
    float r = ref_value(h);
    bool nan = r != r;
    if (nan ? val[h] == val[h] : val[h] != r) { printf("half %04x -> %g, expected %g\n", h, val[h], r); bad++; }
    if (!nan && back[h] != h) { printf("half %04x -> float -> %04x\n", h, back[h]); bad++; }
    unsigned e = h & 0x7c00u, next = h + 1;
    if (e != 0x7c00u && (next & 0x7c00u) != 0x7c00u && (next & 0x7fffu)) {   // finite neighbours
      unsigned even = h & 1 ? next : h;
      if (mid[h] != even) { printf("midpoint above %04x -> %04x, expected %04x\n", h, mid[h], even); bad++; }
    }
  }
  // above the largest half: overflow to infinity
  if (__half_as_ushort(__float2half(65520.f)) != 0x7c00u) { printf("65520 does not round to inf\n"); bad++; }

  half2 *a, *b;
  float *o;
  half *hs;
  cudaMallocManaged(&a, 32 * sizeof(half2));
  cudaMallocManaged(&b, 32 * sizeof(half2));
  cudaMallocManaged(&o, 32 * 4 * sizeof(float));
  cudaMallocManaged(&hs, 32 * sizeof(half));
  for (int i = 0; i < 32; i++) {
    a[i] = __floats2half2_rn(i * 0.25f, 1.0f / (i + 1));
    b[i] = __float2half2_rn(0.5f + i);
    hs[i] = __float2half(i * 0.1f);
  }
  arith<<<1, 32>>>(a, b, o, hs);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32 && bad < 10; i++) {
    half hi = __float2half(i * 0.1f);
    half2 v = __hfma2(a[i], b[i], __float2half2_rn(0.f));
    half2 w = a[i] + b[i] * a[i] - __hmul2(a[i], a[i]);
    half h = __float2half(1.5f) * hi + __low2half(w);
    h += __high2half(w);
    float want[4] = {__low2float(v) + __high2float(v),
                     (float)h + ((float)h > 3.f ? 100.f : 0.f) + ((float)h < (float)hi ? 1000.f : 0.f),
                     __half2float(__hdiv(hi, __int2half_rn(i + 1))) + __half2int_rn(h),
                     __half2float(hsqrt(__habs(-h)))};
    for (int k = 0; k < 4; k++)
      if (o[i * 4 + k] != want[k]) { printf("thread %d value %d: %g, expected %g\n", i, k, o[i * 4 + k], want[k]); bad++; }
    if (__half2float(hs[i]) != -(float)h) { printf("thread %d: stored half %g\n", i, __half2float(hs[i])); bad++; }
  }
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad != 0;
}
