// half_api.cu: the values of cuda_fp16.h's and cuda_bf16.h's functions in
// device code (math_api_list.txt only compiles them) against a CPU
// reference that shares no code with the headers: a value's 16-bit
// neighbours found by binary search over the format's bit patterns (whose
// order is their values' order), exact sums and products in __float128.
//  - conversions with each rounding mode, bit for bit: from floats at and
//    beside every midpoint between neighbouring halves and bfloat16s, at
//    every value, overflow to infinity, subnormals, -0, NaN and infinity;
//    from doubles beside midpoints (where rounding through float would round
//    twice); from 8 integer types at ties and at 2^62 + 2^54 + 1; to 8
//    integer types from every half and bfloat16 (saturation, NaN); half to
//    and from bfloat16, both to float
//  - arithmetic, _sat, fma (_sat, _relu), __hcmadd, every comparison
//    (ordered, unordered, pair, _mask, __hb...2), max/min (_nan) on
//    specials and random operands, bit for bit; sqrt, rsqrt, rcp and the
//    integer roundings on every value, bit for bit; exp, log, sin, cos,
//    tanh... on every value within one unit of the last place; every
//    h2 form agrees with its scalar one
//  - shuffles, atomicAdd (global and shared memory), cache-hinted loads
//    and stores, operators, data movement.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

typedef unsigned short u16;
typedef unsigned long long u64;

/* ------------------------------------------------------------------ */
/* the reference                                                        */
struct Fmt {
  int mb, ex;
  const char *name;
};
static const Fmt HF = {10, 31, "half"}, BF = {7, 255, "bf16"};
static unsigned inf16(Fmt f) { return (unsigned)f.ex << f.mb; }
static bool nan16(unsigned b, Fmt f) { return (b & 0x7fffu) > inf16(f); }
static __float128 pow2(int k) { return (__float128)ldexpl(1.0L, k); }
// the magnitude of pattern b (b & 0x7fff finite)
static __float128 mag16(unsigned b, Fmt f) {
  int bias = f.ex >> 1, e = (int)((b >> f.mb) & (unsigned)f.ex);
  unsigned m = b & ((1u << f.mb) - 1u);
  if (e == 0) return (__float128)m * pow2(1 - bias - f.mb);
  return (__float128)(m + (1u << f.mb)) * pow2(e - bias - f.mb);
}
static long double val16(unsigned b, Fmt f) {
  if (nan16(b, f)) return NAN;
  long double v = (b & 0x7fffu) == inf16(f) ? INFINITY : (long double)mag16(b & 0x7fffu, f);
  return b & 0x8000u ? -v : v;
}
// the magnitudes of the finite patterns, exact in a long double
static long double tab[2][32768];
static void fill_tabs() {
  for (int fi = 0; fi < 2; fi++)
    for (unsigned b = 0; b < inf16(fi ? BF : HF); b++) tab[fi][b] = (long double)mag16(b, fi ? BF : HF);
}
// the pattern of (-1)^neg * mag (mag >= 0, not NaN) rounded by md:
// 0 nearest even, 1 toward zero, 2 up, 3 down
template <class R> static unsigned ref16(bool neg, R mag, int md, Fmt f) {
  const long double *t = tab[f.ex == 255];
  unsigned s = neg ? 0x8000u : 0u, maxb = inf16(f) - 1u;
  if (std::isinf((long double)mag)) return s | inf16(f);
  unsigned lo = 0, hi = maxb;                          // the largest pattern <= mag
  if ((R)t[maxb] <= mag) lo = maxb;
  else
    while (hi - lo > 1) {
      unsigned m = (lo + hi) / 2;
      ((R)t[m] <= mag ? lo : hi) = m;
    }
  if ((R)t[lo] == mag) return s | lo;
  unsigned up = lo + 1;   // (the infinity pattern after the largest)
  R next = lo == maxb ? (R)t[maxb] * 2 - (R)t[maxb - 1] : (R)t[up];
  R mid = ((R)t[lo] + next) * (R)0.5;
  unsigned r;
  if (md == 1) r = lo;
  else if (md == 2) r = neg ? lo : up;
  else if (md == 3) r = neg ? up : lo;
  else r = mag < mid ? lo : mag > mid ? up : (lo & 1u) ? up : lo;
  return s | r;
}
static unsigned ref16ld(long double v, int md, Fmt f) {
  if (v != v) return 0x7fffu;
  return ref16(std::signbit(v), v < 0 ? -v : v, md, f);
}
// integers: rounded by md, saturated, NaN to nanv
static long double ref_rint(long double v, int md) {
  long double fl = floorl(v), d = v - fl;
  if (md == 1) return truncl(v);
  if (md == 2) return ceill(v);
  if (md == 3) return fl;
  return copysignl(d > 0.5L ? fl + 1 : d < 0.5L ? fl : fmodl(fl, 2.0L) == 0 ? fl : fl + 1, v);   // (-0.4: -0)
}
static u64 ref_int(long double v, int md, long double lo, long double hi, u64 nanv) {
  if (v != v) return nanv;
  long double r = ref_rint(v, md);
  if (r <= lo) r = lo;
  if (r >= hi) r = hi;
  return r < 0 ? (u64)(long long)r : (u64)r;
}
// a * b + c exactly (a negligible addend stands in as a single bit far
// below the other's last one, which rounds the same)
static unsigned ref_fma(unsigned a, unsigned b, unsigned c, Fmt f) {
  long double x = val16(a, f), y = val16(b, f), z = val16(c, f);
  long double p = x * y;
  if (x != x || y != y || z != z || std::isinf(p) || std::isinf(z) || (std::isinf(x) || std::isinf(y)))
    return ref16ld(p + z, 0, f);
  __float128 P = (__float128)x * (__float128)y, C = (__float128)z;
  if (P == 0 && C == 0) return ref16ld(p + z, 0, f);   // (the signs of zeros, as IEEE)
  if (P != 0 && C != 0) {
    int ep, ec;
    frexpl(p, &ep);
    frexpl(z, &ec);
    if (ep - ec > 60) C = (C > 0 ? 1 : -1) * pow2(ep - 100);
    if (ec - ep > 60) P = (P > 0 ? 1 : -1) * pow2(ec - 100);
  }
  __float128 s = P + C;
  return ref16(s < 0, s < 0 ? -s : s, 0, f);
}

/* ------------------------------------------------------------------ */
/* device helpers: a format's bits, its value from bits                 */
__host__ __device__ inline u16 bits(__half h) { return __half_as_ushort(h); }
__host__ __device__ inline u16 bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
template <class T> __host__ __device__ inline T mk(u16 b);
template <> __host__ __device__ inline __half mk<__half>(u16 b) { return __ushort_as_half(b); }
template <> __host__ __device__ inline __nv_bfloat16 mk<__nv_bfloat16>(u16 b) { return __ushort_as_bfloat16(b); }

/* ------------------------------------------------------------------ */
/* conversions from float, double and integers                          */
#define NCF 10
__global__ void from_float(const float *in, u16 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = in[i];
  u16 *r = o + (size_t)i * NCF;
  r[0] = bits(__float2half_rn(f));
  r[1] = bits(__float2half_rz(f));
  r[2] = bits(__float2half_ru(f));
  r[3] = bits(__float2half_rd(f));
  r[4] = bits(__float2half(f)) ^ bits(__half(f)) ^ bits(__float2half2_rn(f).y) ^ bits(__floats2half2_rn(0.f, f).y);
  r[5] = bits(__float2bfloat16_rn(f));
  r[6] = bits(__float2bfloat16_rz(f));
  r[7] = bits(__float2bfloat16_ru(f));
  r[8] = bits(__float2bfloat16_rd(f));
  r[9] = bits(__float2bfloat16(f)) ^ bits(__nv_bfloat16(f)) ^ bits(__float2bfloat162_rn(f).x) ^
         bits(__floats2bfloat162_rn(f, 0.f).x);
}
__global__ void from_double(const double *in, u16 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i * 4] = bits(__double2half(in[i]));
  o[i * 4 + 1] = bits(__double2half(in[i])) ^ bits(__half(in[i]));
  o[i * 4 + 2] = bits(__double2bfloat16(in[i]));
  o[i * 4 + 3] = bits(__double2bfloat16(in[i])) ^ bits(__nv_bfloat16(in[i]));
}
// 6 integer types x 4 modes x 2 formats
#define NCI 48
#define CVT_INT(F, H, X)                                                                                            \
  r[k++] = bits(F##_rn(X)); r[k++] = bits(F##_rz(X)); r[k++] = bits(F##_ru(X)); r[k++] = bits(F##_rd(X));
__global__ void from_int(const u64 *in, u16 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u64 x = in[i];
  u16 *r = o + (size_t)i * NCI;
  int k = 0;
  CVT_INT(__int2half, 0, (int)x) CVT_INT(__uint2half, 0, (unsigned)x) CVT_INT(__short2half, 0, (short)x)
  CVT_INT(__ushort2half, 0, (unsigned short)x) CVT_INT(__ll2half, 0, (long long)x) CVT_INT(__ull2half, 0, x)
  CVT_INT(__int2bfloat16, 0, (int)x) CVT_INT(__uint2bfloat16, 0, (unsigned)x) CVT_INT(__short2bfloat16, 0, (short)x)
  CVT_INT(__ushort2bfloat16, 0, (unsigned short)x) CVT_INT(__ll2bfloat16, 0, (long long)x)
  CVT_INT(__ull2bfloat16, 0, x)
}

/* to integers and floats, from every pattern: 6 types x 4 modes, char and
 * uchar (rz), the float value, the other 16-bit format */
#define NCT 28
#define TO_INT(F, T, X)                                                                                             \
  r[k++] = (u64)(T)F##_rn(X); r[k++] = (u64)(T)F##_rz(X); r[k++] = (u64)(T)F##_ru(X); r[k++] = (u64)(T)F##_rd(X);
__global__ void to_int(u64 *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half h = __ushort_as_half((u16)i);
  __nv_bfloat16 b = __ushort_as_bfloat16((u16)i);
  u64 *r = o + (size_t)i * NCT * 2;
  int k = 0;
  TO_INT(__half2int, long long, h) TO_INT(__half2uint, unsigned, h) TO_INT(__half2short, long long, h)
  TO_INT(__half2ushort, unsigned, h) TO_INT(__half2ll, long long, h) TO_INT(__half2ull, u64, h)
  r[k++] = (u64)(long long)__half2char_rz(h);
  r[k++] = __half2uchar_rz(h);
  float f = __half2float(h);
  unsigned fb;
  memcpy(&fb, &f, 4);
  r[k++] = fb;
  r[k++] = bits(__nv_bfloat16(h));
  TO_INT(__bfloat162int, long long, b) TO_INT(__bfloat162uint, unsigned, b) TO_INT(__bfloat162short, long long, b)
  TO_INT(__bfloat162ushort, unsigned, b) TO_INT(__bfloat162ll, long long, b) TO_INT(__bfloat162ull, u64, b)
  r[k++] = (u64)(long long)__bfloat162char_rz(b);
  r[k++] = __bfloat162uchar_rz(b);
  f = __bfloat162float(b);
  memcpy(&fb, &f, 4);
  r[k++] = fb;
  r[k++] = bits(__half(b));
}

/* ------------------------------------------------------------------ */
/* arithmetic and comparisons on operand triples                        */
#define NAR 20
template <class T, class T2> __global__ void arith(const u16 *in, u16 *o, unsigned *cmp, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T a = mk<T>(in[i * 3]), b = mk<T>(in[i * 3 + 1]), c = mk<T>(in[i * 3 + 2]);
  u16 *r = o + (size_t)i * NAR;
  r[0] = bits(__hadd(a, b));
  r[1] = bits(__hsub(a, b));
  r[2] = bits(__hmul(a, b));
  r[3] = bits(__hdiv(a, b));
  r[4] = bits(__hadd_sat(a, b));
  r[5] = bits(__hsub_sat(a, b));
  r[6] = bits(__hmul_sat(a, b));
  r[7] = bits(__hfma(a, b, c));
  r[8] = bits(__hfma_sat(a, b, c));
  r[9] = bits(__hfma_relu(a, b, c));
  r[10] = bits(__hmax(a, b));
  r[11] = bits(__hmin(a, b));
  r[12] = bits(__hmax_nan(a, b));
  r[13] = bits(__hmin_nan(a, b));
  T2 cm = __hcmadd(T2(a, b), T2(c, a), T2(b, c));
  r[14] = bits(cm.x);
  r[15] = bits(cm.y);
  r[16] = bits(a + b) ^ bits(a - b) ^ bits(a * b) ^ bits(a / b) ^ bits(-a) ^ bits(+a);
  T t = a;
  t += b;
  t -= c;
  t *= b;
  t /= c;
  r[17] = bits(t);
  t = a;
  ++t;
  t++;
  --t;
  r[18] = bits(t);
  r[19] = bits(__hadd_rn(a, b)) ^ bits(__hsub_rn(a, b)) ^ bits(__hmul_rn(a, b));
  // ordered, unordered; bit k of the word
  bool cs[12] = {__heq(a, b), __hne(a, b), __hle(a, b), __hge(a, b), __hlt(a, b), __hgt(a, b),
                 __hequ(a, b), __hneu(a, b), __hleu(a, b), __hgeu(a, b), __hltu(a, b), __hgtu(a, b)};
  unsigned w = 0;
  for (int k = 0; k < 12; k++) w |= (unsigned)cs[k] << k;
  w |= (unsigned)(a == b) << 12 | (unsigned)(a != b) << 13 | (unsigned)(a < b) << 14 | (unsigned)(a <= b) << 15 |
       (unsigned)(a > b) << 16 | (unsigned)(a >= b) << 17 | (unsigned)__hisnan(a) << 18 |
       (unsigned)(__hisinf(a) + 1) << 19;
  cmp[i] = w;
}
// every pair form against its scalar one: elements (a, c) and (b, a)
// (a kernel of its own: clang compiles two halves faster than the whole)
template <class T, class T2> __global__ void pairs(const u16 *in, int *bad, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T a = mk<T>(in[i * 3]), b = mk<T>(in[i * 3 + 1]), c = mk<T>(in[i * 3 + 2]);
  T2 p = T2(a, c), q = T2(b, a), s = T2(c, b);
  int e = 0;
  T2 v2[13] = {__hadd2(p, q), __hsub2(p, q), __hmul2(p, q), __h2div(p, q), __hadd2_sat(p, q), __hsub2_sat(p, q),
               __hmul2_sat(p, q), __hfma2(p, q, s), __hfma2_sat(p, q, s), __hfma2_relu(p, q, s), __hmax2(p, q),
               __hmin2(p, q), __hmax2_nan(p, q)};
  T v1x[13] = {__hadd(a, b), __hsub(a, b), __hmul(a, b), __hdiv(a, b), __hadd_sat(a, b), __hsub_sat(a, b),
               __hmul_sat(a, b), __hfma(a, b, c), __hfma_sat(a, b, c), __hfma_relu(a, b, c), __hmax(a, b),
               __hmin(a, b), __hmax_nan(a, b)};
  T v1y[13] = {__hadd(c, a), __hsub(c, a), __hmul(c, a), __hdiv(c, a), __hadd_sat(c, a), __hsub_sat(c, a),
               __hmul_sat(c, a), __hfma(c, a, b), __hfma_sat(c, a, b), __hfma_relu(c, a, b), __hmax(c, a),
               __hmin(c, a), __hmax_nan(c, a)};
  for (int k = 0; k < 13; k++) e |= (bits(v2[k].x) != bits(v1x[k]) || bits(v2[k].y) != bits(v1y[k])) << k;
  T2 mn = __hmin2_nan(p, q), ab = __habs2(p), ng = __hneg2(p), nn = __hisnan2(p);
  e |= (bits(mn.x) != bits(__hmin_nan(a, b)) || bits(mn.y) != bits(__hmin_nan(c, a))) << 13;
  e |= (bits(ab.x) != bits(__habs(a)) || bits(ng.y) != bits(__hneg(c)) || bits(nn.x) != bits(__hisnan(a) ? T(1.0f) : T(0.0f))) << 14;
  // the comparisons of pairs: 1.0 or 0.0, masks, both
#define PAIRCMP(N, K)                                                                                           \
  {                                                                                                             \
    bool x = __h##N(a, b), y = __h##N(c, a);                                                                    \
    T2 r2 = __h##N##2(p, q);                                                                                    \
    unsigned m = __h##N##2_mask(p, q);                                                                          \
    e |= (bits(r2.x) != bits(T(x ? 1.0f : 0.0f)) || bits(r2.y) != bits(T(y ? 1.0f : 0.0f)) ||                    \
          m != ((x ? 0xffffu : 0u) | (y ? 0xffff0000u : 0u)) || __hb##N##2(p, q) != (x && y)) << (15 + K);       \
  }
  PAIRCMP(eq, 0) PAIRCMP(ne, 1) PAIRCMP(le, 2) PAIRCMP(ge, 3) PAIRCMP(lt, 4) PAIRCMP(gt, 5)
  PAIRCMP(equ, 6) PAIRCMP(neu, 7) PAIRCMP(leu, 8) PAIRCMP(geu, 9) PAIRCMP(ltu, 10) PAIRCMP(gtu, 11)
#undef PAIRCMP
  e |= ((p == q) != __hbeq2(p, q) || (p != q) != __hbneu2(p, q) || (p < q) != __hblt2(p, q) ||
        (p >= q) != __hbge2(p, q)) << 27;
  T2 o2 = p + q * s - (p / s);
  T2 o1 = __hsub2(__hadd2(p, __hmul2(q, s)), __h2div(p, s));
  e |= (bits(o2.x) != bits(o1.x) || bits(o2.y) != bits(o1.y)) << 28;
  bad[i] = e;
}

/* ------------------------------------------------------------------ */
/* math functions on every pattern                                      */
#define NMA 20
template <class T, class T2> __global__ void math(u16 *o, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T a = mk<T>((u16)i), b = mk<T>((u16)(i ^ 0xa5a5));
  u16 *r = o + (size_t)i * NMA;
  T v[NMA] = {hsqrt(a), hrsqrt(a), hrcp(a), htrunc(a), hceil(a), hfloor(a), hrint(a), hexp(a), hexp2(a), hexp10(a),
              hlog(a), hlog2(a), hlog10(a), hsin(a), hcos(a), htanh(a), htanh_approx(a), __habs(a), __hneg(a), a};
  for (int k = 0; k < NMA; k++) r[k] = bits(v[k]);
  T2 p = T2(a, b);
  T2 w[17] = {h2sqrt(p), h2rsqrt(p), h2rcp(p), h2trunc(p), h2ceil(p), h2floor(p), h2rint(p), h2exp(p), h2exp2(p),
              h2exp10(p), h2log(p), h2log2(p), h2log10(p), h2sin(p), h2cos(p), h2tanh(p), h2tanh_approx(p)};
  T u[17] = {hsqrt(b), hrsqrt(b), hrcp(b), htrunc(b), hceil(b), hfloor(b), hrint(b), hexp(b), hexp2(b), hexp10(b),
             hlog(b), hlog2(b), hlog10(b), hsin(b), hcos(b), htanh(b), htanh_approx(b)};
  int e = 0;
  for (int k = 0; k < 17; k++) e |= (bits(w[k].x) != bits(v[k]) || bits(w[k].y) != bits(u[k])) << k;
  bad[i] = e;
}

/* ------------------------------------------------------------------ */
/* shuffles, atomics, loads and stores, data movement                   */
#define NW 18
__global__ void warp(const __half *hin, const __nv_bfloat16 *bin, unsigned *o, __half *ha, __half2 *h2a,
                     __nv_bfloat16 *ba, __nv_bfloat162 *b2a, u16 *olds, __half2 *hst, __nv_bfloat162 *bst) {
  __shared__ __half sh;
  __shared__ __half2 sh2;
  __shared__ __nv_bfloat16 sb;
  __shared__ __nv_bfloat162 sb2;
  int t = threadIdx.x, l = t & 31;
  if (t == 0) {
    sh = __float2half(0.f);
    sh2 = __floats2half2_rn(0.f, 0.f);
    sb = __float2bfloat16(0.f);
    sb2 = __floats2bfloat162_rn(0.f, 0.f);
  }
  __syncthreads();
  __half h = hin[t];
  __nv_bfloat16 b = bin[t];
  __half2 h2 = __halves2half2(h, hin[(t + 7) & 255]);
  __nv_bfloat162 b2 = __halves2bfloat162(b, bin[(t + 7) & 255]);
  unsigned *r = o + t * NW;
  __half x1 = __shfl_xor_sync(0xffffffffu, h, 1);
  __half x2 = __shfl_down_sync(0xffffffffu, h, 3, 16);
  __half2 x3 = __shfl_sync(0xffffffffu, h2, 5);
  __half2 x4 = __shfl_up_sync(0xffffffffu, h2, 2);
  __nv_bfloat16 x5 = __shfl_sync(0xffffffffu, b, 31 - l);
  __nv_bfloat16 x6 = __shfl_up_sync(0xffffffffu, b, 1, 8);
  __nv_bfloat162 x7 = __shfl_xor_sync(0xffffffffu, b2, 6);
  __nv_bfloat162 x8 = __shfl_down_sync(0xffffffffu, b2, 4);
  r[0] = bits(x1) | (unsigned)bits(x2) << 16;
  r[1] = bits(x3.x) | (unsigned)bits(x3.y) << 16;
  r[2] = bits(x4.x) | (unsigned)bits(x4.y) << 16;
  r[3] = bits(x5) | (unsigned)bits(x6) << 16;
  r[4] = bits(x7.x) | (unsigned)bits(x7.y) << 16;
  r[5] = bits(x8.x) | (unsigned)bits(x8.y) << 16;
  // atomics: 1.0 (and 0.5) from every thread, exact in both formats
  olds[t * 4] = bits(atomicAdd(ha, __float2half(1.f)));
  olds[t * 4 + 1] = bits(atomicAdd(h2a, __floats2half2_rn(1.f, 0.5f)).y);
  olds[t * 4 + 2] = bits(atomicAdd(ba, __float2bfloat16(1.f)));
  olds[t * 4 + 3] = bits(atomicAdd(b2a, __floats2bfloat162_rn(0.5f, 1.f)).y);
  atomicAdd(&sh, __float2half(1.f));
  atomicAdd(&sh2, __floats2half2_rn(0.5f, 1.f));
  atomicAdd(&sb, __float2bfloat16(1.f));
  atomicAdd(&sb2, __floats2bfloat162_rn(1.f, 0.5f));
  // loads and stores with cache hints
  __half l1 = __ldg(&hin[t]), l2 = __ldcg(&hin[t]), l3 = __ldca(&hin[t]), l4 = __ldcs(&hin[t]), l5 = __ldlu(&hin[t]),
         l6 = __ldcv(&hin[t]);
  const __half2 *hp = (const __half2 *)hin;
  const __nv_bfloat162 *bp = (const __nv_bfloat162 *)bin;
  __half2 m1 = __ldg(&hp[t >> 1]), m2 = __ldcg(&hp[t >> 1]), m3 = __ldca(&hp[t >> 1]), m4 = __ldcs(&hp[t >> 1]),
          m5 = __ldlu(&hp[t >> 1]), m6 = __ldcv(&hp[t >> 1]);
  __nv_bfloat16 n1 = __ldg(&bin[t]), n2 = __ldcg(&bin[t]), n3 = __ldca(&bin[t]), n4 = __ldcs(&bin[t]),
                n5 = __ldlu(&bin[t]), n6 = __ldcv(&bin[t]);
  __nv_bfloat162 q1 = __ldg(&bp[t >> 1]), q2 = __ldcg(&bp[t >> 1]), q3 = __ldca(&bp[t >> 1]),
                 q4 = __ldcs(&bp[t >> 1]), q5 = __ldlu(&bp[t >> 1]), q6 = __ldcv(&bp[t >> 1]);
  r[6] = bits(l1) | (unsigned)bits(n1) << 16;
  r[7] = bits(m1.x) | (unsigned)bits(q1.y) << 16;
  r[16] = (bits(l2) != bits(l1)) + (bits(l3) != bits(l1)) + (bits(l4) != bits(l1)) + (bits(l5) != bits(l1)) +
          (bits(l6) != bits(l1)) + (bits(n2) != bits(n1)) + (bits(n3) != bits(n1)) + (bits(n4) != bits(n1)) +
          (bits(n5) != bits(n1)) + (bits(n6) != bits(n1));
  r[17] = (bits(m2.x) != bits(m1.x)) + (bits(m3.y) != bits(m1.y)) + (bits(m4.x) != bits(m1.x)) +
          (bits(m5.y) != bits(m1.y)) + (bits(m6.x) != bits(m1.x)) + (bits(q2.x) != bits(q1.x)) +
          (bits(q3.y) != bits(q1.y)) + (bits(q4.x) != bits(q1.x)) + (bits(q5.y) != bits(q1.y)) +
          (bits(q6.y) != bits(q1.y));
  __half *hs = (__half *)hst;
  __nv_bfloat16 *bs = (__nv_bfloat16 *)bst;
  __stwb(&hst[t * 4], h2);
  __stcg(&hst[t * 4 + 1], __lowhigh2highlow(h2));
  __stcs(&hst[t * 4 + 2], __low2half2(h2));
  __stwt(&hst[t * 4 + 3], __high2half2(h2));
  __stwb(&hs[2048 + t * 4], h);
  __stcg(&hs[2048 + t * 4 + 1], __low2half(h2));
  __stcs(&hs[2048 + t * 4 + 2], __high2half(h2));
  __stwt(&hs[2048 + t * 4 + 3], h);
  __stwb(&bst[t * 4], b2);
  __stcg(&bst[t * 4 + 1], __lowhigh2highlow(b2));
  __stcs(&bst[t * 4 + 2], __low2bfloat162(b2));
  __stwt(&bst[t * 4 + 3], __high2bfloat162(b2));
  __stwb(&bs[2048 + t * 4], b);
  __stcg(&bs[2048 + t * 4 + 1], __low2bfloat16(b2));
  __stcs(&bs[2048 + t * 4 + 2], __high2bfloat16(b2));
  __stwt(&bs[2048 + t * 4 + 3], b);
  // data movement
  __half2 d1 = __lows2half2(h2, __half2half2(h)), d2 = __highs2half2(h2, make_half2(h, h));
  __nv_bfloat162 d3 = __lows2bfloat162(b2, __bfloat162bfloat162(b)), d4 = __highs2bfloat162(b2, make_bfloat162(b, b));
  r[8] = bits(d1.x) | (unsigned)bits(d1.y) << 16;
  r[9] = bits(d2.x) | (unsigned)bits(d2.y) << 16;
  r[10] = bits(d3.x) | (unsigned)bits(d3.y) << 16;
  r[11] = bits(d4.x) | (unsigned)bits(d4.y) << 16;
  float2 f2 = __half22float2(h2), g2 = __bfloat1622float2(b2);
  r[12] = __float_as_uint(f2.y) ^ __float_as_uint(__low2float(h2)) ^ __float_as_uint(__high2float(b2));
  r[13] = bits(__float22half2_rn(g2).y) | (unsigned)bits(__float22bfloat162_rn(f2).x) << 16;
  __half_raw hr = h;
  __nv_bfloat162_raw br = b2;
  r[14] = bits(__half(hr)) | (unsigned)bits(__nv_bfloat162(br).y) << 16;
  r[15] = (unsigned)__half_as_short(h) ^ (unsigned)bits(__short_as_half(__half_as_short(h))) ^
          (unsigned)__bfloat16_as_short(b) ^ (unsigned)bits(__short_as_bfloat16(__bfloat16_as_short(b)));
  __syncthreads();
  if (t == 0) {
    olds[1024] = bits(sh);
    olds[1025] = bits(sh2.x);
    olds[1026] = bits(sh2.y);
    olds[1027] = bits(sb);
    olds[1028] = bits(sb2.x);
    olds[1029] = bits(sb2.y);
  }
}

/* ------------------------------------------------------------------ */
static int bad = 0;
static void fail(const char *what, u64 in, u64 got, u64 want) {
  if (bad++ < 40) printf("%s: input %llx: got %llx, expected %llx\n", what, in, got, want);
}
static unsigned rnd32() { return ((unsigned)rand() << 16) ^ (unsigned)rand(); }
static u64 rnd64() { return (u64)rnd32() << 32 | rnd32(); }
static float fbits(unsigned b) {
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static unsigned ubits(float f) {
  unsigned b;
  memcpy(&b, &f, 4);
  return b;
}
static const char *mode[4] = {"rn", "rz", "ru", "rd"};

static void check_from_float() {
  std::vector<float> in;
  unsigned sp[] = {0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u, 0xffc01234u, 1, 0x80000001u,
                   0x007fffffu, 0x00800000u, 0x33000000u, 0x33000001u, 0x32ffffffu, 0x33800000u, 0x477fe000u,
                   0x477fefffu, 0x477ff000u, 0x477ff001u, 0x47800000u, 0x7f7fffffu, 0xff7fffffu};
  for (unsigned b : sp) in.push_back(fbits(b));
  // every value, every midpoint and its neighbours, of both formats
  for (int fi = 0; fi < 2; fi++) {
    Fmt f = fi ? BF : HF;
    for (unsigned b = 0; b < inf16(f); b++) {
      float v = (float)(long double)mag16(b, f);
      float next = b + 1 < inf16(f) ? (float)(long double)mag16(b + 1, f)
                                    : (float)(long double)(mag16(b, f) * 2 - mag16(b - 1, f));
      float mid = (float)(((long double)v + (long double)next) / 2);
      float c[4] = {v, mid, nextafterf(mid, 0.f), nextafterf(mid, INFINITY)};
      for (float x : c) {
        in.push_back(x);
        in.push_back(-x);
      }
    }
  }
  for (int k = 0; k < 100000; k++) in.push_back(fbits(rnd32()));
  int n = (int)in.size();
  float *din;
  u16 *o;
  cudaMallocManaged(&din, n * sizeof(float));
  cudaMallocManaged(&o, (size_t)n * NCF * 2);
  memcpy(din, in.data(), n * sizeof(float));
  from_float<<<(n + 255) / 256, 256>>>(din, o, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; i++) {
    long double v = in[i];
    for (int fi = 0; fi < 2; fi++) {
      Fmt f = fi ? BF : HF;
      u16 *r = o + (size_t)i * NCF + fi * 5;
      for (int m = 0; m < 4; m++) {
        unsigned want = ref16ld(v, m, f);
        if (r[m] != want) {
          char w[64];
          snprintf(w, sizeof w, "__float2%s_%s", fi ? "bfloat16" : "half", mode[m]);
          fail(w, ubits(in[i]), r[m], want);
        }
      }
      unsigned rn = ref16ld(v, 0, f);
      if (r[4] != 0) fail(fi ? "__float2bfloat16 (and its ctor, pair forms)" : "__float2half (and its ctor, pair forms)",
                          ubits(in[i]), r[4], rn);
    }
  }
  cudaFree(din);
  cudaFree(o);
}

static void check_from_double() {
  std::vector<double> in = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e300, -1e300, 1e-300, 4.9e-324, 65519.99999,
                            65520.0, 65520.000001, 3.3961775292304957e38, 3.396e38, 3.3963e38, 1e39};
  for (int fi = 0; fi < 2; fi++) {
    Fmt f = fi ? BF : HF;
    for (int k = 0; k < 4000; k++) {
      unsigned b = (unsigned)rand() % (inf16(f) - 1);
      double mid = (double)(long double)((mag16(b, f) + mag16(b + 1, f)) / 2);
      // beside a midpoint by less than a float's last bit: through float, a tie
      double d[4] = {mid, mid * (1 + 0x1p-35), mid * (1 - 0x1p-35), (double)(long double)mag16(b, f)};
      for (double x : d) {
        in.push_back(x);
        in.push_back(-x);
      }
    }
  }
  for (int k = 0; k < 20000; k++) {
    double x;
    u64 b = rnd64();
    memcpy(&x, &b, 8);
    in.push_back(x);
    in.push_back(ldexp((double)(rnd64() >> 11), (int)(rand() % 300) - 200));
  }
  int n = (int)in.size();
  double *din;
  u16 *o;
  cudaMallocManaged(&din, n * sizeof(double));
  cudaMallocManaged(&o, (size_t)n * 8);
  memcpy(din, in.data(), n * sizeof(double));
  from_double<<<(n + 255) / 256, 256>>>(din, o, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; i++) {
    u64 ib;
    memcpy(&ib, &in[i], 8);
    for (int fi = 0; fi < 2; fi++) {
      unsigned want = ref16ld(in[i], 0, fi ? BF : HF);
      if (o[i * 4 + fi * 2] != want) fail(fi ? "__double2bfloat16" : "__double2half", ib, o[i * 4 + fi * 2], want);
      if (o[i * 4 + fi * 2 + 1]) fail(fi ? "__nv_bfloat16(double)" : "__half(double)", ib, o[i * 4 + fi * 2 + 1], 0);
    }
  }
  cudaFree(din);
  cudaFree(o);
}

static void check_from_int() {
  std::vector<u64> in = {0, 1, (u64)-1, 2, 3, 2047, 2048, 2049, 2050, 2051, 4097, 4099, 65503, 65504, 65505, 65519,
                         65520, 65521, 65535, 65536, 65537, 257, 258, 259, 32767, 32768, (u64)-32768, (u64)-32769,
                         0x7fffffffull, 0x80000000ull, 0xffffffffull, (u64)-2147483647ll - 1,
                         (1ull << 30) + (1ull << 22) + 1, (1ull << 30) + (1ull << 22), (1ull << 62) + (1ull << 54) + 1,
                         (1ull << 62) + (1ull << 54), 0x7fffffffffffffffull, 0x8000000000000000ull,
                         0xffffffffffffffffull, (u64)-((1ll << 62) + (1ll << 54) + 1)};
  for (int k = 0; k < 20000; k++) {
    int sh = rand() % 64;
    u64 m = (u64)(rand() % 4096) << (sh > 12 ? sh - 12 : 0);
    in.push_back(m);
    in.push_back(m + 1);
    in.push_back(m - 1);
    in.push_back(0 - m);
    in.push_back(rnd64() >> (rand() % 64));
  }
  int n = (int)in.size();
  u64 *din;
  u16 *o;
  cudaMallocManaged(&din, n * sizeof(u64));
  cudaMallocManaged(&o, (size_t)n * NCI * 2);
  memcpy(din, in.data(), n * sizeof(u64));
  from_int<<<(n + 255) / 256, 256>>>(din, o, n);
  cudaDeviceSynchronize();
  static const char *tn[6] = {"int", "uint", "short", "ushort", "ll", "ull"};
  for (int i = 0; i < n; i++) {
    u64 x = in[i];
    long double v[6] = {(long double)(int)x, (long double)(unsigned)x, (long double)(short)x,
                        (long double)(unsigned short)x, (long double)(long long)x, (long double)x};
    for (int fi = 0; fi < 2; fi++)
      for (int t = 0; t < 6; t++)
        for (int m = 0; m < 4; m++) {
          unsigned want = ref16ld(v[t], m, fi ? BF : HF), got = o[(size_t)i * NCI + fi * 24 + t * 4 + m];
          if (got != want) {
            char w[64];
            snprintf(w, sizeof w, "__%s2%s_%s", tn[t], fi ? "bfloat16" : "half", mode[m]);
            fail(w, x, got, want);
          }
        }
  }
  cudaFree(din);
  cudaFree(o);
}

static void check_to_int() {
  u64 *o;
  cudaMallocManaged(&o, (size_t)65536 * NCT * 2 * sizeof(u64));
  to_int<<<256, 256>>>(o);
  cudaDeviceSynchronize();
  static const char *tn[6] = {"int", "uint", "short", "ushort", "ll", "ull"};
  const long double lo[6] = {-2147483648.0L, 0, -32768, 0, -9223372036854775808.0L, 0};
  const long double hi[6] = {2147483647.0L, 4294967295.0L, 32767, 65535, 9223372036854775807.0L,
                             18446744073709551615.0L};
  const u64 nanv[6] = {0, 0, 0, 0, 0x8000000000000000ull, 0x8000000000000000ull};
  for (unsigned b = 0; b < 65536; b++)
    for (int fi = 0; fi < 2; fi++) {
      Fmt f = fi ? BF : HF;
      u64 *r = o + (size_t)b * NCT * 2 + fi * NCT;
      long double v = val16(b, f);
      for (int t = 0; t < 6; t++)
        for (int m = 0; m < 4; m++) {
          u64 want = ref_int(v, m, lo[t], hi[t], nanv[t]);
          if (r[t * 4 + m] != want) {
            char w[64];
            snprintf(w, sizeof w, "__%s2%s_%s", fi ? "bfloat16" : "half", tn[t], mode[m]);
            fail(w, b, r[t * 4 + m], want);
          }
        }
      if (r[24] != ref_int(v, 1, -128, 127, 0)) fail(fi ? "__bfloat162char_rz" : "__half2char_rz", b, r[24], ref_int(v, 1, -128, 127, 0));
      if (r[25] != ref_int(v, 1, 0, 255, 0)) fail(fi ? "__bfloat162uchar_rz" : "__half2uchar_rz", b, r[25], ref_int(v, 1, 0, 255, 0));
      float fv = fbits((unsigned)r[26]);
      if (v != v ? fv == fv : (long double)fv != v || std::signbit(fv) != std::signbit(v))
        fail(fi ? "__bfloat162float" : "__half2float", b, r[26], ubits((float)v));
      unsigned want = ref16ld(v, 0, fi ? HF : BF);
      if (r[27] != want) fail(fi ? "__half(__nv_bfloat16)" : "__nv_bfloat16(__half)", b, r[27], want);
    }
  cudaFree(o);
}

/* arithmetic: the reference for each of arith's outputs */
static unsigned sat(unsigned r, Fmt f) {
  long double v = val16(r, f);
  return v != v || v <= 0 ? 0u : v >= 1 ? ref16ld(1.0L, 0, f) : r;
}
static unsigned ref_minmax(unsigned a, unsigned b, Fmt f, bool max, bool nan) {
  bool na = nan16(a, f), nb = nan16(b, f);
  if (na || nb) return nan || (na && nb) ? 0x7fffu : na ? b : a;
  long double x = val16(a, f), y = val16(b, f);
  if (x == y) return (a & 0x8000u) == (max ? 0u : 0x8000u) ? a : b;
  return (max ? x > y : x < y) ? a : b;
}
template <class T, class T2> static void check_arith(Fmt f) {
  std::vector<u16> sp = {0, 0x8000, (u16)inf16(f), (u16)(inf16(f) | 0x8000), 0x7fff, (u16)(inf16(f) + 1), 0xffff,
                         (u16)(inf16(f) - 1), (u16)(inf16(f) - 1 + 0x8000), 1, 0x8001, (u16)((1u << f.mb) - 1),
                         (u16)(1u << f.mb), (u16)ref16ld(1.0L, 0, f), (u16)ref16ld(-1.0L, 0, f), (u16)ref16ld(0.5L, 0, f),
                         (u16)ref16ld(2.0L, 0, f), (u16)ref16ld(17.0L, 0, f), (u16)ref16ld(-3.0L, 0, f),
                         (u16)ref16ld(0.999L, 0, f), (u16)ref16ld(1e-3L, 0, f), (u16)ref16ld(300.0L, 0, f)};
  std::vector<u16> in;
  for (u16 a : sp)
    for (u16 b : sp) {
      in.push_back(a);
      in.push_back(b);
      in.push_back(sp[(a + b) % sp.size()]);
    }
  // a negligible addend in the fma: it decides the rounding of a tie
  u16 s17 = (u16)ref16ld(17.0L, 0, f), tiny = 1;
  u16 extra[] = {s17, s17, tiny, s17, s17, (u16)(tiny | 0x8000), s17, (u16)(s17 ^ 0x8000), tiny};
  for (u16 x : extra) in.push_back(x);
  for (int k = 0; k < 30000; k++) {
    in.push_back((u16)rand());
    in.push_back((u16)rand());
    in.push_back((u16)rand());
  }
  int n = (int)in.size() / 3;
  u16 *din, *o;
  unsigned *cmp;
  int *dbad;
  cudaMallocManaged(&din, in.size() * 2);
  cudaMallocManaged(&o, (size_t)n * NAR * 2);
  cudaMallocManaged(&cmp, n * sizeof(unsigned));
  cudaMallocManaged(&dbad, n * sizeof(int));
  memcpy(din, in.data(), in.size() * 2);
  arith<T, T2><<<(n + 127) / 128, 128>>>(din, o, cmp, n);
  pairs<T, T2><<<(n + 127) / 128, 128>>>(din, dbad, n);
  cudaDeviceSynchronize();
  static const char *an[NAR] = {"__hadd", "__hsub", "__hmul", "__hdiv", "__hadd_sat", "__hsub_sat", "__hmul_sat",
                                "__hfma", "__hfma_sat", "__hfma_relu", "__hmax", "__hmin", "__hmax_nan", "__hmin_nan",
                                "__hcmadd.x", "__hcmadd.y", "operators", "compound assignments", "++ and --", "_rn"};
  for (int i = 0; i < n; i++) {
    unsigned a = in[i * 3], b = in[i * 3 + 1], c = in[i * 3 + 2];
    long double x = val16(a, f), y = val16(b, f);
    unsigned w[NAR];
    w[0] = ref16ld(x + y, 0, f);
    w[1] = ref16ld(x - y, 0, f);
    w[2] = ref16ld(x * y, 0, f);
    w[3] = ref16ld(x / y, 0, f);
    w[4] = sat(w[0], f);
    w[5] = sat(w[1], f);
    w[6] = sat(w[2], f);
    w[7] = ref_fma(a, b, c, f);
    w[8] = sat(w[7], f);
    long double fv = val16(w[7], f);
    w[9] = fv != fv ? 0x7fffu : fv < 0 ? 0u : w[7];
    w[10] = ref_minmax(a, b, f, true, false);
    w[11] = ref_minmax(a, b, f, false, false);
    w[12] = ref_minmax(a, b, f, true, true);
    w[13] = ref_minmax(a, b, f, false, true);
    // (a + ib)(c + ia) + (b + ic)
    w[14] = ref_fma(b ^ 0x8000u, a, ref_fma(a, c, b, f), f);
    w[15] = ref_fma(b, c, ref_fma(a, a, c, f), f);
    w[16] = w[0] ^ w[1] ^ w[2] ^ w[3] ^ (a ^ 0x8000u) ^ a;
    unsigned t = ref16ld(x + y, 0, f);
    t = ref16ld(val16(t, f) - val16(c, f), 0, f);
    t = ref16ld(val16(t, f) * y, 0, f);
    t = ref16ld(val16(t, f) / val16(c, f), 0, f);
    w[17] = t;
    t = ref16ld(x + 1, 0, f);
    t = ref16ld(val16(t, f) + 1, 0, f);
    w[18] = ref16ld(val16(t, f) - 1, 0, f);
    w[19] = w[0] ^ w[1] ^ w[2];
    for (int k = 0; k < NAR; k++)
      if (o[(size_t)i * NAR + k] != w[k]) {
        char nm[80];
        snprintf(nm, sizeof nm, "%s %s (a b c)", f.name, an[k]);
        fail(nm, (u64)a << 32 | b << 16 | c, o[(size_t)i * NAR + k], w[k]);
      }
    bool un = x != x || y != y;
    bool cs[12] = {x == y, x < y || x > y, x <= y, x >= y, x < y, x > y, un || x == y, un || x != y,
                   un || x <= y, un || x >= y, un || x < y, un || x > y};
    unsigned want = 0;
    for (int k = 0; k < 12; k++) want |= (unsigned)cs[k] << k;
    want |= (unsigned)cs[0] << 12 | (unsigned)cs[7] << 13 | (unsigned)cs[4] << 14 | (unsigned)cs[2] << 15 |
            (unsigned)cs[5] << 16 | (unsigned)cs[3] << 17 | (unsigned)(x != x) << 18 |
            (unsigned)((std::isinf(x) ? (x < 0 ? -1 : 1) : 0) + 1) << 19;
    if (cmp[i] != want) {
      char nm[80];
      snprintf(nm, sizeof nm, "%s comparisons (bits: eq ne le ge lt gt, ..u, operators, isnan, isinf)", f.name);
      fail(nm, (u64)a << 16 | b, cmp[i], want);
    }
    if (dbad[i]) {
      char nm[80];
      snprintf(nm, sizeof nm, "%s pair forms unlike the scalar ones (bits)", f.name);
      fail(nm, (u64)a << 32 | b << 16 | c, (u64)dbad[i], 0);
    }
  }
  cudaFree(din);
  cudaFree(o);
  cudaFree(cmp);
  cudaFree(dbad);
}

/* math: exact where the result is one rounding of an exact value, else
 * within one unit in the last place (specials exact) */
static int ulps(unsigned g, unsigned w) {
  if ((g ^ w) & 0x8000u) return g == w ? 0 : ((g | w) & 0x7fffu) == 0 ? 0 : 99;
  int d = (int)(g & 0x7fffu) - (int)(w & 0x7fffu);
  return d < 0 ? -d : d;
}
template <class T, class T2> static void check_math(Fmt f) {
  u16 *o;
  int *dbad;
  cudaMallocManaged(&o, (size_t)65536 * NMA * 2);
  cudaMallocManaged(&dbad, 65536 * sizeof(int));
  math<T, T2><<<256, 256>>>(o, dbad);
  cudaDeviceSynchronize();
  static const char *nm[NMA] = {"hsqrt", "hrsqrt", "hrcp", "htrunc", "hceil", "hfloor", "hrint", "hexp", "hexp2",
                                "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos", "htanh", "htanh_approx", "__habs",
                                "__hneg", "identity"};
  int far = 0;
  for (unsigned b = 0; b < 65536; b++) {
    long double x = val16(b, f);
    long double ex[NMA] = {sqrtl(x), 1 / sqrtl(x), 1 / x, truncl(x), ceill(x), floorl(x), ref_rint(x, 0),
                           expl(x), exp2l(x), powl(10, x), logl(x), log2l(x), log10l(x), sinl(x), cosl(x),
                           tanhl(x), tanhl(x), 0, 0, 0};
    for (int k = 0; k < NMA; k++) {
      unsigned got = o[(size_t)b * NMA + k];
      unsigned want = k == 17 ? (nan16(b, f) ? got : b & 0x7fffu) : k == 18 ? (nan16(b, f) ? got : b ^ 0x8000u) : k == 19 ? b
                      : ref16ld(ex[k], 0, f);
      if (k == 6 && std::isinf(x)) want = b;   // (the reference's rint of infinity)
      if (k >= 17 && nan16(b, f) && ((got ^ b) & 0x7fffu)) want = b;   // (only the sign bit may change)
      bool exact = k < 7 || k >= 17 || nan16(want, f) || (want & 0x7fffu) == 0 || (want & 0x7fffu) == inf16(f) ||
                   nan16(b, f);
      int u = ulps(got, want);
      if (exact ? got != want : u > 1) {
        char w[64];
        snprintf(w, sizeof w, "%s %s", f.name, nm[k]);
        fail(w, b, got, want);
      } else if (u) far++;
    }
    if (dbad[b]) {
      char w[64];
      snprintf(w, sizeof w, "%s h2 math forms unlike the scalar ones (bits)", f.name);
      fail(w, b, (u64)dbad[b], 0);
    }
  }
  printf("%s: %d results of exp, log, sin, cos, tanh... one unit from the correctly rounded one\n", f.name, far);
  cudaFree(o);
  cudaFree(dbad);
}

static void check_warp() {
  __half *hin, *ha;
  __nv_bfloat16 *bin, *ba;
  __half2 *h2a, *hst;
  __nv_bfloat162 *b2a, *bst;
  unsigned *o;
  u16 *olds;
  cudaMallocManaged(&hin, 256 * 2);
  cudaMallocManaged(&bin, 256 * 2);
  cudaMallocManaged(&ha, 2);
  cudaMallocManaged(&ba, 2);
  cudaMallocManaged(&h2a, 4);
  cudaMallocManaged(&b2a, 4);
  cudaMallocManaged(&hst, 4096 * 4);
  cudaMallocManaged(&bst, 4096 * 4);
  cudaMallocManaged(&o, 256 * NW * 4);
  cudaMallocManaged(&olds, 2048 * 2);
  for (int t = 0; t < 256; t++) {
    hin[t] = __ushort_as_half((u16)(t * 251 + 17));   // (NaNs too)
    bin[t] = __ushort_as_bfloat16((u16)(t * 257 + 3));
  }
  *ha = __float2half(0.f);
  *ba = __float2bfloat16(0.f);
  *h2a = __floats2half2_rn(0.f, 0.f);
  *b2a = __floats2bfloat162_rn(0.f, 0.f);
  warp<<<1, 256>>>(hin, bin, o, ha, h2a, ba, b2a, olds, hst, bst);
  cudaDeviceSynchronize();
  u16 hb[256], bb[256];
  for (int t = 0; t < 256; t++) {
    hb[t] = __half_as_ushort(hin[t]);
    bb[t] = __bfloat16_as_ushort(bin[t]);
  }
  for (int t = 0; t < 256; t++) {
    int l = t & 31, w0 = t - l;
    unsigned *r = o + t * NW;
    // a shuffle moves the bits (a NaN keeps its payload)
    auto vh = [&](int s) { return (unsigned)hb[s]; };
    auto vb = [&](int s) { return (unsigned)bb[s]; };
    auto p2 = [&](const u16 *x, int s) { return x[s] | (unsigned)x[(s + 7) & 255] << 16; };
    unsigned want[NW];
    int dn = (l & 15) + 3 < 16 ? t + 3 : t, up8 = (l & 7) >= 1 ? t - 1 : t;
    want[0] = vh(w0 + (l ^ 1)) | vh(dn) << 16;
    want[1] = p2(hb, w0 + 5);
    want[2] = p2(hb, l >= 2 ? t - 2 : t);
    want[3] = vb(w0 + 31 - l) | vb(up8) << 16;
    want[4] = p2(bb, w0 + (l ^ 6));
    want[5] = p2(bb, l + 4 < 32 ? t + 4 : t);
    int s0 = t & ~1;
    want[6] = hb[t] | (unsigned)bb[t] << 16;
    want[7] = hb[s0] | (unsigned)bb[s0 + 1] << 16;
    want[16] = want[17] = 0;
    unsigned hx = hb[t], hy = hb[(t + 7) & 255], bx = bb[t], by = bb[(t + 7) & 255];
    want[8] = hx | hx << 16;
    want[9] = hy | hx << 16;
    want[10] = bx | bx << 16;
    want[11] = by | bx << 16;
    float fy = (float)val16(hy, HF), fx = (float)val16(hx, HF), gy = (float)val16(by, BF), gx = (float)val16(bx, BF);
    want[12] = ubits(fy) ^ ubits(fx) ^ ubits(gy);
    if (fy != fy || fx != fx || gy != gy) want[12] = r[12];   // (NaN payloads through float: not checked)
    want[13] = ref16ld(gy, 0, HF) | ref16ld(fx, 0, BF) << 16;
    want[14] = hx | by << 16;
    want[15] = (unsigned)(short)hx ^ hx ^ (unsigned)(short)bx ^ bx;
    for (int k = 0; k < NW; k++)
      if (r[k] != want[k]) {
        char nm[80];
        static const char *wn[NW] = {"__shfl_xor_sync/__shfl_down_sync(__half)", "__shfl_sync(__half2)",
                                     "__shfl_up_sync(__half2)", "__shfl_sync/__shfl_up_sync(__nv_bfloat16)",
                                     "__shfl_xor_sync(__nv_bfloat162)", "__shfl_down_sync(__nv_bfloat162)",
                                     "__ldg... (scalars)", "__ldg... (pairs)", "__lows2half2", "__highs2half2",
                                     "__lows2bfloat162", "__highs2bfloat162", "__half22float2...", "__float22half2_rn...",
                                     "raw types", "bit casts", "__ldg... unlike __ldg (scalars)",
                                     "__ldg... unlike __ldg (pairs)"};
        snprintf(nm, sizeof nm, "thread %d: %s", t, wn[k]);
        fail(nm, t, r[k], want[k]);
      }
    const __half *hs = (const __half *)hst;
    const __nv_bfloat16 *bs = (const __nv_bfloat16 *)bst;
    unsigned sh[8] = {hx, hy, hy, hx, hx, hx, hy, hy}, sb[8] = {bx, by, by, bx, bx, bx, by, by};
    unsigned ssh[4] = {hx, hx, hy, hx}, ssb[4] = {bx, bx, by, bx};
    for (int k = 0; k < 8; k++) {
      if (__half_as_ushort(hs[t * 8 + k]) != sh[k]) fail("__stwb... (__half2)", t * 8 + k, __half_as_ushort(hs[t * 8 + k]), sh[k]);
      if (__bfloat16_as_ushort(bs[t * 8 + k]) != sb[k])
        fail("__stwb... (__nv_bfloat162)", t * 8 + k, __bfloat16_as_ushort(bs[t * 8 + k]), sb[k]);
    }
    for (int k = 0; k < 4; k++) {
      if (__half_as_ushort(hs[2048 + t * 4 + k]) != ssh[k]) fail("__stwb... (__half)", t, __half_as_ushort(hs[2048 + t * 4 + k]), ssh[k]);
      if (__bfloat16_as_ushort(bs[2048 + t * 4 + k]) != ssb[k])
        fail("__stwb... (__nv_bfloat16)", t, __bfloat16_as_ushort(bs[2048 + t * 4 + k]), ssb[k]);
    }
  }
  // atomics: the totals, and every old value once
  struct { const char *what; unsigned got, want; } tot[] = {
      {"atomicAdd(__half *)", __half_as_ushort(*ha), 0x5c00u},          // 256
      {"atomicAdd(__half2 *).x", __half_as_ushort(h2a->x), 0x5c00u},
      {"atomicAdd(__half2 *).y", __half_as_ushort(h2a->y), 0x5800u},    // 128
      {"atomicAdd(__nv_bfloat16 *)", __bfloat16_as_ushort(*ba), 0x4380u},
      {"atomicAdd(__nv_bfloat162 *).x", __bfloat16_as_ushort(b2a->x), 0x4300u},
      {"atomicAdd(__nv_bfloat162 *).y", __bfloat16_as_ushort(b2a->y), 0x4380u},
      {"atomicAdd(__shared__ __half)", olds[1024], 0x5c00u},
      {"atomicAdd(__shared__ __half2).x", olds[1025], 0x5800u},
      {"atomicAdd(__shared__ __half2).y", olds[1026], 0x5c00u},
      {"atomicAdd(__shared__ __nv_bfloat16)", olds[1027], 0x4380u},
      {"atomicAdd(__shared__ __nv_bfloat162).x", olds[1028], 0x4380u},
      {"atomicAdd(__shared__ __nv_bfloat162).y", olds[1029], 0x4300u}};
  for (auto &x : tot)
    if (x.got != x.want) fail(x.what, 0, x.got, x.want);
  for (int k = 0; k < 4; k++) {
    Fmt f = k < 2 ? HF : BF;
    long double step = k == 1 ? 0.5L : 1.0L;
    std::vector<int> seen(256, 0);
    for (int t = 0; t < 256; t++) {
      long double v = val16(olds[t * 4 + k], f) / step;
      if (v >= 0 && v < 256 && v == floorl(v)) seen[(int)v]++;
    }
    for (int j = 0; j < 256; j++)
      if (seen[j] != 1) {
        fail("atomicAdd's old values", k, j, seen[j]);
        break;
      }
  }
  cudaFree(hin);
  cudaFree(bin);
  cudaFree(ha);
  cudaFree(ba);
  cudaFree(h2a);
  cudaFree(b2a);
  cudaFree(hst);
  cudaFree(bst);
  cudaFree(o);
  cudaFree(olds);
}

int main() {
  srand(22);
  fill_tabs();
  check_from_float();
  check_from_double();
  check_from_int();
  check_to_int();
  check_arith<__half, __half2>(HF);
  check_arith<__nv_bfloat16, __nv_bfloat162>(BF);
  check_math<__half, __half2>(HF);
  check_math<__nv_bfloat16, __nv_bfloat162>(BF);
  check_warp();
  printf(bad ? "FAIL (%d)\n" : "PASS\n", bad);
  return bad != 0;
}
