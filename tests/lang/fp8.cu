// fp8.cu: cuda_fp8.h in device and host code against a brute-force
// reference: narrowing from float, double, half and bfloat16 to E4M3 and
// E5M2 in both saturation modes (the nearest value among all 256
// encodings, ties to the even encoding, overflow past the largest finite
// value's half-way point), at every encoding's value, every midpoint and
// its neighbours, infinities, NaN, signed zeros; widening of all 256
// encodings; the classes' constructors and conversions; the x2/x4 packing.
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cuda_fp8.h>

#define NIN 2048

// the value of encoding c by the definition of the format
static double ref_value(int c, bool e5) {
  int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7, E = (c & 0x7f) >> mb, m = c & ((1 << mb) - 1);
  double v = E == 0 ? std::ldexp((double)m, 1 - bias - mb) : std::ldexp((double)(m + (1 << mb)), E - bias - mb);
  return c & 0x80 ? -v : v;
}
static bool ref_nan(int c, bool e5) { return e5 ? (c & 0x7f) > 0x7c : (c & 0x7f) == 0x7f; }
static bool ref_inf(int c, bool e5) { return e5 && (c & 0x7f) == 0x7c; }

// narrowing by search: the nearest of all finite encodings, and one more
// candidate past the largest (the next binade's step), which is overflow
static int ref_narrow(double x, bool sat, bool e5) {
  int sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x)) {   // E5M2 ORs the top two payload bits into 0x7e, as CUDA does
    unsigned long long b;
    memcpy(&b, &x, 8);
    return sign | (e5 ? 0x7e | (int)((b >> 50) & 3) : 0x7f);
  }
  double a = std::fabs(x);
  int maxc = e5 ? 0x7b : 0x7e;
  double past = ref_value(maxc, e5) + (ref_value(maxc, e5) - ref_value(maxc - 1, e5));
  int best = -1;
  if (a >= past) best = maxc + 1;   // (the distances below are exact only for small a)
  double bd = 0;
  for (int c = 0; c <= maxc + 1 && a < past; c++) {
    double d = std::fabs(a - (c <= maxc ? ref_value(c, e5) : past));
    if (best < 0 || d < bd || (d == bd && (c & 1) == 0)) best = c, bd = d;
  }
  if (best > maxc) best = sat ? maxc : e5 ? 0x7c : 0x7f;
  return sign | best;
}

struct Out {
  unsigned char f[4][NIN];   // float input: [kind * 2 + sat]
  unsigned char d[4][NIN];   // double input
  unsigned char h[4][NIN];   // the input rounded to half first
  unsigned char b[4][NIN];   // ... to bfloat16 first
  float wide[2][256];        // widening, by kind
  unsigned short hw[2][256]; // widening to half, bits
  float cls[8];
  long long ints[8];
  unsigned pack[4];
};

__host__ __device__ static void narrow_all(const double *in, Out *o, int i) {
  for (int k = 0; k < 4; k++) {
    __nv_fp8_interpretation_t kind = k / 2 ? __NV_E5M2 : __NV_E4M3;
    __nv_saturation_t s = k % 2 ? __NV_SATFINITE : __NV_NOSAT;
    o->f[k][i] = __nv_cvt_float_to_fp8((float)in[i], s, kind);
    o->d[k][i] = __nv_cvt_double_to_fp8(in[i], s, kind);
    o->h[k][i] = __nv_cvt_halfraw_to_fp8((__half_raw)__double2half(in[i]), s, kind);
    o->b[k][i] = __nv_cvt_bfloat16raw_to_fp8((__nv_bfloat16_raw)__float2bfloat16((float)in[i]), s, kind);
  }
}

__global__ void knarrow(const double *in, Out *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) narrow_all(in, o, i);
}

__global__ void kwide(Out *o) {
  int c = threadIdx.x;
  for (int k = 0; k < 2; k++) {
    __nv_fp8_interpretation_t kind = k ? __NV_E5M2 : __NV_E4M3;
    __nv_fp8_storage_t s = (__nv_fp8_storage_t)c;
    __half_raw h = __nv_cvt_fp8_to_halfraw(s, kind);
    o->hw[k][c] = h.x;
    if (k) {
      __nv_fp8_e5m2 q;
      q.__x = s;
      o->wide[k][c] = (float)q;
    } else {
      __nv_fp8_e4m3 q;
      q.__x = s;
      o->wide[k][c] = (float)q;
    }
  }
}

// the classes, as the hunt's program uses them
__global__ void kclass(Out *o) {
  __nv_fp8_e4m3 q(1.5f);
  __nv_fp8_e5m2 r(-3.3);
  __nv_fp8_e4m3 big(1000.0f);   // saturates: 448
  __nv_fp8_e4m3 hq(__float2half(0.3f));
  o->cls[0] = (float)q;
  o->cls[1] = (float)r;
  o->cls[2] = (float)big;
  o->cls[3] = __half2float((__half)hq);
  o->cls[4] = (float)(__nv_bfloat16)r;
  o->cls[5] = (float)(double)__nv_fp8_e5m2(7);
  o->ints[0] = (int)__nv_fp8_e4m3(-7.5f);
  o->ints[1] = (unsigned char)__nv_fp8_e4m3(-7.5f);
  o->ints[2] = (unsigned char)__nv_fp8_e5m2(1000.0f);
  o->ints[3] = (long long)__nv_fp8_e5m2(-20000.0f);
  __nv_fp8_e4m3 nan;
  nan.__x = 0x7f;
  o->ints[4] = (int)nan;
  o->ints[5] = (bool)__nv_fp8_e4m3(-0.0f);
  o->ints[6] = (bool)__nv_fp8_e4m3(0.01f);
  __nv_fp8x2_e4m3 p2(make_float2(1.0f, -2.0f));
  __nv_fp8x4_e5m2 p4(make_float4(0.5f, 1.0f, -1.0f, 65536.0f));
  float4 back = (float4)p4;
  o->pack[0] = p2.__x;
  o->pack[1] = p4.__x;
  o->pack[2] = back.w == 57344.0f && back.z == -1.0f;
  o->pack[3] = ((__half2_raw)(__half2)p2).y;
}

int main() {
  double *in;
  Out *o;
  cudaMallocManaged(&in, NIN * sizeof *in);
  cudaMallocManaged(&o, sizeof *o);
  int n = 0;
  // every encoding's value, each midpoint and the doubles beside it
  for (int e5 = 0; e5 < 2; e5++)
    for (int c = 0; c < 0x7f; c++) {
      double v = ref_value(c, e5), w = ref_value(c + 1, e5);
      if (ref_nan(c + 1, e5) || ref_inf(c + 1, e5)) w = v + (v - ref_value(c - 1, e5));
      double mid = (v + w) / 2;
      in[n++] = v, in[n++] = -mid, in[n++] = mid, in[n++] = std::nextafter(mid, 0.0),
      in[n++] = std::nextafter(mid, 1e300);
    }
  const double special[] = {INFINITY, -INFINITY, NAN, -NAN, 0.0, -0.0, 1e-30, -1e-30, 1e30, 65504.0, 70000.0,
                            464.0, 464.0001, 480.0, 61440.0, 61439.0, 3.14159, -0.001953125, 0.0009765625};
  for (double x : special) in[n++] = x;
  unsigned r = 12345;
  while (n < NIN) {   // random doubles of every magnitude the formats reach
    r = r * 1103515245u + 12345u;
    double m = (r >> 8) / 16777216.0;
    r = r * 1103515245u + 12345u;
    in[n++] = std::ldexp(1 + m, (int)(r >> 16) % 44 - 26) * ((r >> 3) & 1 ? -1 : 1);
  }
  knarrow<<<(NIN + 127) / 128, 128>>>(in, o, NIN);
  kwide<<<1, 256>>>(o);
  kclass<<<1, 1>>>(o);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL: launch\n");
    return 1;
  }
  int bad = 0;
  Out *h = new Out;
  for (int i = 0; i < NIN; i++) {
    narrow_all(in, h, i);   // the host side of the same header
    for (int k = 0; k < 4; k++) {
      bool e5 = k / 2, sat = k % 2;
      int wf = ref_narrow((float)in[i], sat, e5), wd = ref_narrow(in[i], sat, e5);
      int wh = ref_narrow(__half2float(__double2half(in[i])), sat, e5);
      int wb = ref_narrow(__bfloat162float(__float2bfloat16((float)in[i])), sat, e5);
      int got[8] = {o->f[k][i], o->d[k][i], o->h[k][i], o->b[k][i], h->f[k][i], h->d[k][i], h->h[k][i], h->b[k][i]};
      int want[4] = {wf, wd, wh, wb};
      for (int j = 0; j < 8; j++)
        if (got[j] != want[j % 4] && bad++ < 20)
          printf("%s from %s of %.17g (%s, %s): 0x%02x, want 0x%02x\n", j < 4 ? "device" : "host",
                 (const char *[]){"float", "double", "half", "bfloat16"}[j % 4], in[i], e5 ? "e5m2" : "e4m3",
                 sat ? "satfinite" : "nosat", got[j], want[j % 4]);
    }
  }
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < 256; c++) {
      float g = o->wide[k][c];
      bool nan = ref_nan(c, k), inf = ref_inf(c, k);
      double want = inf ? (c & 0x80 ? -INFINITY : INFINITY) : ref_value(c, k);
      unsigned gb;
      memcpy(&gb, &g, 4);
      bool ok = nan ? gb == 0x7fffe000u && o->hw[k][c] == 0x7fff
                    : g == want && std::signbit(g) == (c >= 0x80) &&
                          __half2float(__half(__half_raw{o->hw[k][c]})) == (float)want;
      if (!ok && bad++ < 30) printf("widen %s 0x%02x: %g (half 0x%04x)\n", k ? "e5m2" : "e4m3", c, g, o->hw[k][c]);
    }
  // 0.3 -> half 0.2999 -> e4m3 0.3125; -3.3 -> e5m2 -3.5; 7 -> e5m2 7
  const float wc[6] = {1.5f, -3.5f, 448.0f, 0.3125f, -3.5f, 7.0f};
  for (int j = 0; j < 6; j++)
    if (o->cls[j] != wc[j] && bad++ < 40) printf("class value %d: %g, want %g\n", j, o->cls[j], wc[j]);
  // -7.5 -> -7 (truncated), u8 of negative 0, e5m2(1000) = 1024 -> 255, -20480 as ll, NaN 0, bools
  const long long wi[7] = {-7, 0, 255, -20480, 0, 0, 1};
  for (int j = 0; j < 7; j++)
    if (o->ints[j] != wi[j] && bad++ < 40) printf("class integer %d: %lld, want %lld\n", j, o->ints[j], wi[j]);
  // x2: 1.0 = 0x38, -2.0 = 0xc0; x4 e5m2: 0.5 0x38, 1 0x3c, -1 0xbc, 65536 -> 57344 0x7b
  if (o->pack[0] != 0xc038u || o->pack[1] != 0x7bbc3c38u || !o->pack[2] || o->pack[3] != 0xc000u) {
    printf("packing: 0x%x 0x%x %u 0x%x\n", o->pack[0], o->pack[1], o->pack[2], o->pack[3]);
    bad++;
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
