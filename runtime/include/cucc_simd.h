/* cucc_simd.h: CUDA's SIMD intrinsics in device code (our own header, read
 * through device_functions.h, by libclang and, where that header declares
 * the intrinsics to the host unit, by the host compiler): 2 halfwords or 4
 * bytes of an unsigned int worked on side by side, and the DPX functions
 * of sm_90 (__vimax3_s32, __viaddmax_u16x2, ...). Each is a loop over the
 * lanes of plain C; a GPU has an instruction for most. */
#ifndef CUCC_SIMD_H
#define CUCC_SIMD_H
#if defined(__CUCC_PARSE__) || defined(__CUCC_HOST_DEVDECLS__)
/* lane k of x, w bits wide, as a signed or an unsigned value */
static __device__ inline int __cucc_lns(unsigned int x, int w, int k) {
  unsigned int v = (x >> (w * k)) & ((1u << w) - 1u), sb = 1u << (w - 1);
  return (int)(v ^ sb) - (int)sb;
}
static __device__ inline int __cucc_lnu(unsigned int x, int w, int k) { return (int)((x >> (w * k)) & ((1u << w) - 1u)); }
static __device__ inline int __cucc_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
/* NAME##2 on halfwords, NAME##4 on bytes: R is the lane's result from a
 * and b (the lanes, signed if S else unsigned), kept to the lane's width */
#define CUCC_V(NAME, S, R)                                                                            \
  static __device__ inline unsigned int __cucc_##NAME(unsigned int x, unsigned int y, int w) {        \
    unsigned int r = 0;                                                                               \
    int lo = S ? -(1 << (w - 1)) : 0, hi = S ? (1 << (w - 1)) - 1 : (1 << w) - 1, ones = (1 << w) - 1; \
    (void)lo; (void)hi; (void)ones;                                                                   \
    for (int k = 0; k < 32 / w; k++) {                                                                \
      int a = S ? __cucc_lns(x, w, k) : __cucc_lnu(x, w, k), b = S ? __cucc_lns(y, w, k) : __cucc_lnu(y, w, k); \
      (void)b;                                                                                        \
      r |= ((unsigned int)(R) & (unsigned int)ones) << (w * k);                                       \
    }                                                                                                 \
    return r;                                                                                         \
  }                                                                                                   \
  static __device__ inline unsigned int __##NAME##2(unsigned int a, unsigned int b) { return __cucc_##NAME(a, b, 16); } \
  static __device__ inline unsigned int __##NAME##4(unsigned int a, unsigned int b) { return __cucc_##NAME(a, b, 8); }
CUCC_V(vadd, 0, a + b)
CUCC_V(vaddss, 1, __cucc_clamp(a + b, lo, hi))
CUCC_V(vaddus, 0, __cucc_clamp(a + b, lo, hi))
CUCC_V(vsub, 0, a - b)
CUCC_V(vsubss, 1, __cucc_clamp(a - b, lo, hi))
CUCC_V(vsubus, 0, __cucc_clamp(a - b, lo, hi))
/* signed: halves rounded away from zero; unsigned: up; vhaddu: down */
CUCC_V(vavgs, 1, (a + b + (a + b >= 0)) >> 1)
CUCC_V(vavgu, 0, (a + b + 1) >> 1)
CUCC_V(vhaddu, 0, (a + b) >> 1)
CUCC_V(vabsdiffs, 1, a > b ? a - b : b - a)
CUCC_V(vabsdiffu, 0, a > b ? a - b : b - a)
CUCC_V(vmaxs, 1, a > b ? a : b)
CUCC_V(vmaxu, 0, a > b ? a : b)
CUCC_V(vmins, 1, a < b ? a : b)
CUCC_V(vminu, 0, a < b ? a : b)
/* comparisons: all ones (vcmp) or 1 (vset) in a lane where true */
CUCC_V(vcmpeq, 0, a == b ? ones : 0)
CUCC_V(vcmpne, 0, a != b ? ones : 0)
CUCC_V(vcmpges, 1, a >= b ? ones : 0)
CUCC_V(vcmpgeu, 0, a >= b ? ones : 0)
CUCC_V(vcmpgts, 1, a > b ? ones : 0)
CUCC_V(vcmpgtu, 0, a > b ? ones : 0)
CUCC_V(vcmples, 1, a <= b ? ones : 0)
CUCC_V(vcmpleu, 0, a <= b ? ones : 0)
CUCC_V(vcmplts, 1, a < b ? ones : 0)
CUCC_V(vcmpltu, 0, a < b ? ones : 0)
CUCC_V(vseteq, 0, a == b)
CUCC_V(vsetne, 0, a != b)
CUCC_V(vsetges, 1, a >= b)
CUCC_V(vsetgeu, 0, a >= b)
CUCC_V(vsetgts, 1, a > b)
CUCC_V(vsetgtu, 0, a > b)
CUCC_V(vsetles, 1, a <= b)
CUCC_V(vsetleu, 0, a <= b)
CUCC_V(vsetlts, 1, a < b)
CUCC_V(vsetltu, 0, a < b)
/* one-operand ones: b is 0 */
CUCC_V(vabs_, 1, a < 0 ? -a : a)
CUCC_V(vabsss_, 1, __cucc_clamp(a < 0 ? -a : a, lo, hi))
CUCC_V(vneg_, 1, -a)
CUCC_V(vnegss_, 1, __cucc_clamp(-a, lo, hi))
#undef CUCC_V
static __device__ inline unsigned int __vabs2(unsigned int a) { return __cucc_vabs_(a, 0, 16); }
static __device__ inline unsigned int __vabs4(unsigned int a) { return __cucc_vabs_(a, 0, 8); }
static __device__ inline unsigned int __vabsss2(unsigned int a) { return __cucc_vabsss_(a, 0, 16); }
static __device__ inline unsigned int __vabsss4(unsigned int a) { return __cucc_vabsss_(a, 0, 8); }
static __device__ inline unsigned int __vneg2(unsigned int a) { return __cucc_vneg_(a, 0, 16); }
static __device__ inline unsigned int __vneg4(unsigned int a) { return __cucc_vneg_(a, 0, 8); }
static __device__ inline unsigned int __vnegss2(unsigned int a) { return __cucc_vnegss_(a, 0, 16); }
static __device__ inline unsigned int __vnegss4(unsigned int a) { return __cucc_vnegss_(a, 0, 8); }
/* sums of absolute differences: one number, not lanes */
static __device__ inline unsigned int __cucc_vsad(unsigned int x, unsigned int y, int w, int s) {
  unsigned int r = 0;
  for (int k = 0; k < 32 / w; k++) {
    int a = s ? __cucc_lns(x, w, k) : __cucc_lnu(x, w, k), b = s ? __cucc_lns(y, w, k) : __cucc_lnu(y, w, k);
    r += (unsigned int)(a > b ? a - b : b - a);
  }
  return r;
}
static __device__ inline unsigned int __vsads2(unsigned int a, unsigned int b) { return __cucc_vsad(a, b, 16, 1); }
static __device__ inline unsigned int __vsads4(unsigned int a, unsigned int b) { return __cucc_vsad(a, b, 8, 1); }
static __device__ inline unsigned int __vsadu2(unsigned int a, unsigned int b) { return __cucc_vsad(a, b, 16, 0); }
static __device__ inline unsigned int __vsadu4(unsigned int a, unsigned int b) { return __cucc_vsad(a, b, 8, 0); }

/* ---- sm_90's DPX: max/min of three, add then max/min, ReLU (max with 0),
 * and max/min that also say which operand won. _s16x2/_u16x2 work on the
 * two halfwords as above; the others on whole 32-bit values. */
static __device__ inline int __cucc_max(int a, int b) { return a > b ? a : b; }
static __device__ inline int __cucc_min(int a, int b) { return a < b ? a : b; }
static __device__ inline unsigned int __cucc_umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static __device__ inline unsigned int __cucc_umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
/* op on the halfwords of three operands: R from a, b and c */
#define CUCC_H3(NAME, S, R)                                                                       \
  static __device__ inline unsigned int NAME(unsigned int x, unsigned int y, unsigned int z) {    \
    unsigned int r = 0;                                                                           \
    for (int k = 0; k < 2; k++) {                                                                 \
      int a = S ? __cucc_lns(x, 16, k) : __cucc_lnu(x, 16, k), b = S ? __cucc_lns(y, 16, k) : __cucc_lnu(y, 16, k); \
      int c = S ? __cucc_lns(z, 16, k) : __cucc_lnu(z, 16, k);                                    \
      (void)c;                                                                                    \
      r |= ((unsigned int)(R) & 0xffffu) << (16 * k);                                             \
    }                                                                                             \
    return r;                                                                                     \
  }
/* the sum of two halfwords wraps to 16 bits before max or min */
#define CUCC_W(v, S) (S ? (int)(short)(v) : (int)(unsigned short)(v))
CUCC_H3(__cucc_max2r, 1, __cucc_max(__cucc_max(a, b), 0))
CUCC_H3(__cucc_min2r, 1, __cucc_max(__cucc_min(a, b), 0))
CUCC_H3(__vimax3_s16x2, 1, __cucc_max(__cucc_max(a, b), c))
CUCC_H3(__vimax3_u16x2, 0, __cucc_max(__cucc_max(a, b), c))
CUCC_H3(__vimin3_s16x2, 1, __cucc_min(__cucc_min(a, b), c))
CUCC_H3(__vimin3_u16x2, 0, __cucc_min(__cucc_min(a, b), c))
CUCC_H3(__vimax3_s16x2_relu, 1, __cucc_max(__cucc_max(__cucc_max(a, b), c), 0))
CUCC_H3(__vimin3_s16x2_relu, 1, __cucc_max(__cucc_min(__cucc_min(a, b), c), 0))
CUCC_H3(__viaddmax_s16x2, 1, __cucc_max(CUCC_W(a + b, 1), c))
CUCC_H3(__viaddmax_u16x2, 0, __cucc_max(CUCC_W(a + b, 0), c))
CUCC_H3(__viaddmin_s16x2, 1, __cucc_min(CUCC_W(a + b, 1), c))
CUCC_H3(__viaddmin_u16x2, 0, __cucc_min(CUCC_W(a + b, 0), c))
CUCC_H3(__viaddmax_s16x2_relu, 1, __cucc_max(__cucc_max(CUCC_W(a + b, 1), c), 0))
CUCC_H3(__viaddmin_s16x2_relu, 1, __cucc_max(__cucc_min(CUCC_W(a + b, 1), c), 0))
#undef CUCC_H3
#undef CUCC_W
static __device__ inline unsigned int __vimax_s16x2_relu(unsigned int a, unsigned int b) { return __cucc_max2r(a, b, 0); }
static __device__ inline unsigned int __vimin_s16x2_relu(unsigned int a, unsigned int b) { return __cucc_min2r(a, b, 0); }
static __device__ inline int __vimax_s32_relu(int a, int b) { return __cucc_max(__cucc_max(a, b), 0); }
static __device__ inline int __vimin_s32_relu(int a, int b) { return __cucc_max(__cucc_min(a, b), 0); }
static __device__ inline int __vimax3_s32(int a, int b, int c) { return __cucc_max(__cucc_max(a, b), c); }
static __device__ inline int __vimin3_s32(int a, int b, int c) { return __cucc_min(__cucc_min(a, b), c); }
static __device__ inline unsigned int __vimax3_u32(unsigned int a, unsigned int b, unsigned int c) { return __cucc_umax(__cucc_umax(a, b), c); }
static __device__ inline unsigned int __vimin3_u32(unsigned int a, unsigned int b, unsigned int c) { return __cucc_umin(__cucc_umin(a, b), c); }
static __device__ inline int __vimax3_s32_relu(int a, int b, int c) { return __cucc_max(__vimax3_s32(a, b, c), 0); }
static __device__ inline int __vimin3_s32_relu(int a, int b, int c) { return __cucc_max(__vimin3_s32(a, b, c), 0); }
/* a + b wraps, as the GPU's 32-bit add does */
static __device__ inline int __cucc_wadd(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
static __device__ inline int __viaddmax_s32(int a, int b, int c) { return __cucc_max(__cucc_wadd(a, b), c); }
static __device__ inline int __viaddmin_s32(int a, int b, int c) { return __cucc_min(__cucc_wadd(a, b), c); }
static __device__ inline unsigned int __viaddmax_u32(unsigned int a, unsigned int b, unsigned int c) { return __cucc_umax(a + b, c); }
static __device__ inline unsigned int __viaddmin_u32(unsigned int a, unsigned int b, unsigned int c) { return __cucc_umin(a + b, c); }
static __device__ inline int __viaddmax_s32_relu(int a, int b, int c) { return __cucc_max(__viaddmax_s32(a, b, c), 0); }
static __device__ inline int __viaddmin_s32_relu(int a, int b, int c) { return __cucc_max(__viaddmin_s32(a, b, c), 0); }
/* max or min, and whether a was the one chosen (a on a tie) */
static __device__ inline int __vibmax_s32(int a, int b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
static __device__ inline int __vibmin_s32(int a, int b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
static __device__ inline unsigned int __vibmax_u32(unsigned int a, unsigned int b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
static __device__ inline unsigned int __vibmin_u32(unsigned int a, unsigned int b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
static __device__ inline unsigned int __cucc_vib(unsigned int x, unsigned int y, bool *hi, bool *lo, int s, int mx) {
  unsigned int r = 0;
  for (int k = 0; k < 2; k++) {
    int a = s ? __cucc_lns(x, 16, k) : __cucc_lnu(x, 16, k), b = s ? __cucc_lns(y, 16, k) : __cucc_lnu(y, 16, k);
    bool p = mx ? a >= b : a <= b;
    *(k ? hi : lo) = p;
    r |= ((unsigned int)(p ? a : b) & 0xffffu) << (16 * k);
  }
  return r;
}
static __device__ inline unsigned int __vibmax_s16x2(unsigned int a, unsigned int b, bool *hi, bool *lo) { return __cucc_vib(a, b, hi, lo, 1, 1); }
static __device__ inline unsigned int __vibmax_u16x2(unsigned int a, unsigned int b, bool *hi, bool *lo) { return __cucc_vib(a, b, hi, lo, 0, 1); }
static __device__ inline unsigned int __vibmin_s16x2(unsigned int a, unsigned int b, bool *hi, bool *lo) { return __cucc_vib(a, b, hi, lo, 1, 0); }
static __device__ inline unsigned int __vibmin_u16x2(unsigned int a, unsigned int b, bool *hi, bool *lo) { return __cucc_vib(a, b, hi, lo, 0, 0); }
#endif /* __CUCC_PARSE__ || __CUCC_HOST_DEVDECLS__ */
#endif
