/* cucc_dev.h: included by the device C that cucc generates (and nothing
 * else). Helpers for warps of 32 lanes; kept static inline so that the C
 * compiler sees through them and vectorizes the lane loops around them. */
#ifndef CUCC_DEV_H
#define CUCC_DEV_H
#include <cucc_rt.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* __popc in a lane loop (a lane's rank among a mask's lanes): where the
 * ISA has no vector popcount (x86 without AVX-512 VPOPCNTDQ, x86-64-v4
 * included) gcc counts one lane at a time (popcnt, or a libgcc call on the
 * baseline); in shifts, masks and adds the loop vectorizes (the byte sums
 * added by shifts: gcc turns the usual multiply by 0x01010101 back into
 * its popcount). Once per warp, on a uniform value, it costs a few
 * instructions more. */
#if defined(__x86_64__) && !defined(__AVX512VPOPCNTDQ__)
static inline int cu_popc32(unsigned x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  x += x >> 8;
  return (int)((x + (x >> 16)) & 0x3fu);
}
static inline int cu_popc64(unsigned long long x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  x += x >> 8;
  x += x >> 16;
  return (int)((x + (x >> 32)) & 0x7fu);
}
#define __builtin_popcount(x) cu_popc32(x)
#define __builtin_popcountll(x) cu_popc64(x)
#endif

/* fmaxf, fminf, fmax and fmin as a GPU computes them: the other operand
 * where one is NaN, and of two zeros the maximum +0 and the minimum -0
 * unless both are the other (an H100's fmaxf(-0, +0) is +0 whichever
 * comes first; glibc's is its first operand). On x86, where no instruction
 * has C's rule for NaN and gcc called libm's one lane at a time (a
 * softmax's row maximum, a ReLU), compares and a select, which vectorize;
 * aarch64's fmaxnm and fminnm are the GPU's rule already. */
#if defined(__x86_64__)
#define CU_FMINMAX(NAME, T, OP, ZSIGN)                                                  \
  static inline T NAME(T x, T y) { return x OP y || y != y || (x == y && ZSIGN __builtin_signbit(x)) ? x : y; }
CU_FMINMAX(cu_fmaxf, float, >, !)
CU_FMINMAX(cu_fminf, float, <, )
CU_FMINMAX(cu_fmax, double, >, !)
CU_FMINMAX(cu_fmin, double, <, )
#undef CU_FMINMAX
#define __builtin_fmaxf(x, y) cu_fmaxf(x, y)
#define __builtin_fminf(x, y) cu_fminf(x, y)
#define __builtin_fmax(x, y) cu_fmax(x, y)
#define __builtin_fmin(x, y) cu_fmin(x, y)
#endif

/* Thread indices of the lanes of warp w; returns how many lanes the warp
 * has (the last warp of a block may be partial). Lane = linear thread id
 * % 32 with x fastest, then y, then z. */
static inline int cu_warp_ids(const cu_block *B, unsigned w, unsigned *tx, unsigned *ty,
                              unsigned *tz) {
  unsigned base = w * 32u, dx = B->blockDim.x, dy = B->blockDim.y;
  unsigned n = B->nthreads - base;
  if (n > 32u) n = 32u;
  if (dx % 32u == 0) {
    /* whole warps along x: y and z are the same for every lane */
    unsigned x0 = base % dx, r = base / dx;
    for (unsigned l = 0; l < 32u; l++) {
      tx[l] = x0 + l;
      ty[l] = r % dy;
      tz[l] = r / dy;
    }
    return (int)n;
  }
  /* the first lane's indices divided out, the others stepped from it:
   * two divisions a lane were 11% of the guarded tile-16 matmul (its
   * block-level if's condition runs warp by warp in the general version) */
  unsigned x = base % dx, y = (base / dx) % dy, z = base / (dx * dy);
  for (unsigned l = 0; l < 32u; l++) {
    tx[l] = x;
    ty[l] = y;
    tz[l] = z;
    if (++x == dx) {
      x = 0;
      if (++y == dy) y = 0, z++;
    }
  }
  return (int)n;
}

/* x / d and x % d for a divisor d that is the same in every lane: when d is a
 * power of two (as in the lecture's t % (2*stride)) a shift and a mask
 * replace the divide, which vector units do not have. The test on d does not
 * depend on the lane, so the C compiler hoists it out of the lane loop. */
static inline unsigned cu_udiv(unsigned x, unsigned d) {
  return d && (d & (d - 1)) == 0 ? x >> __builtin_ctz(d) : x / d;
}
static inline unsigned cu_umod(unsigned x, unsigned d) {
  return d && (d & (d - 1)) == 0 ? x & (d - 1) : x % d;
}

/* How many lanes warp w has, for regions that never read threadIdx. */
static inline int cu_warp_nl(const cu_block *B, unsigned w) {
  unsigned n = B->nthreads - w * 32u;
  return (int)(n > 32u ? 32u : n);
}

/* The next warp's first thread when warps are whole rows (blockDim.x a
 * multiple of 32): a step instead of three divisions per warp. */
/* a whole warp's shuffle as a lane loop (lowering/print.c): its width,
 * and an up or down offset clamped to the padded array it reads */
static inline int cu_shfl_width(int w) { return (w <= 0 || w > 32) ? 32 : w; }
static inline unsigned cu_shfl_off(unsigned d) { return d < 32u ? d : 32u; }

/* A whole warp's shuffle by lane ^ d, d uniform below the width: a
 * permutation of the warp's 32 values, done in vectors of the machine's
 * width (CU_XW bytes) with constant shuffles: the pieces d's high bits
 * swap, then each piece permuted by d's low bits. (A lane loop reading
 * v[l ^ d] is a gather: the butterflies of cg::reduce and of shuffle
 * reductions spent most of their time there.) For 4- and 8-byte values;
 * d is a constant wherever the caller's loop unrolls, and then one case. */
#if defined(__AVX512F__)
#define CU_XW 64
#elif defined(__AVX__)
#define CU_XW 32
#else
#define CU_XW 16
#endif
typedef uint32_t cu_xv4 __attribute__((vector_size(CU_XW)));
typedef uint64_t cu_xv8 __attribute__((vector_size(CU_XW)));
#define CU_X2(e) 0 ^ (e), 1 ^ (e)
#define CU_X4(e) CU_X2(e), 2 ^ (e), 3 ^ (e)
#define CU_X8(e) CU_X4(e), 4 ^ (e), 5 ^ (e), 6 ^ (e), 7 ^ (e)
#define CU_X16(e) CU_X8(e), 8 ^ (e), 9 ^ (e), 10 ^ (e), 11 ^ (e), 12 ^ (e), 13 ^ (e), 14 ^ (e), 15 ^ (e)
#if CU_XW == 64
#define CU_XI4 CU_X16(0)
#define CU_XI8 CU_X8(0)
#elif CU_XW == 32
#define CU_XI4 CU_X8(0)
#define CU_XI8 CU_X4(0)
#else
#define CU_XI4 CU_X4(0)
#define CU_XI8 CU_X2(0)
#endif
#if defined(__GNUC__) && !defined(__clang__)
/* (gcc: one variable permute, a constant one when e is; small enough for
 * the caller's loop to unroll) */
static inline cu_xv4 cu_xor_in4(cu_xv4 a, unsigned e) {
  const cu_xv4 i = {CU_XI4};
  return __builtin_shuffle(a, i ^ e);
}
static inline cu_xv8 cu_xor_in8(cu_xv8 a, unsigned e) {
  const cu_xv8 i = {CU_XI8};
  return __builtin_shuffle(a, i ^ e);
}
#else
#define CU_XC(X, e) case e: return __builtin_shufflevector(a, a, X(e));
static inline cu_xv4 cu_xor_in4(cu_xv4 a, unsigned e) {
  switch (e) {
#if CU_XW == 64
  CU_XC(CU_X16, 1) CU_XC(CU_X16, 2) CU_XC(CU_X16, 3) CU_XC(CU_X16, 4) CU_XC(CU_X16, 5) CU_XC(CU_X16, 6)
  CU_XC(CU_X16, 7) CU_XC(CU_X16, 8) CU_XC(CU_X16, 9) CU_XC(CU_X16, 10) CU_XC(CU_X16, 11) CU_XC(CU_X16, 12)
  CU_XC(CU_X16, 13) CU_XC(CU_X16, 14) CU_XC(CU_X16, 15)
#elif CU_XW == 32
  CU_XC(CU_X8, 1) CU_XC(CU_X8, 2) CU_XC(CU_X8, 3) CU_XC(CU_X8, 4) CU_XC(CU_X8, 5) CU_XC(CU_X8, 6) CU_XC(CU_X8, 7)
#else
  CU_XC(CU_X4, 1) CU_XC(CU_X4, 2) CU_XC(CU_X4, 3)
#endif
  default: return a;
  }
}
static inline cu_xv8 cu_xor_in8(cu_xv8 a, unsigned e) {
  switch (e) {
#if CU_XW == 64
  CU_XC(CU_X8, 1) CU_XC(CU_X8, 2) CU_XC(CU_X8, 3) CU_XC(CU_X8, 4) CU_XC(CU_X8, 5) CU_XC(CU_X8, 6) CU_XC(CU_X8, 7)
#elif CU_XW == 32
  CU_XC(CU_X4, 1) CU_XC(CU_X4, 2) CU_XC(CU_X4, 3)
#else
  CU_XC(CU_X2, 1)
#endif
  default: return a;
  }
}
#undef CU_XC
#endif
/* o[l] = v[l ^ d] for the 32 lanes (d < 32), values of `size` bytes */
static inline void cu_xor_perm(void *restrict o, const void *restrict v, unsigned d, size_t size) {
  if (size == 4) {
    const unsigned n = CU_XW / 4, hi = d / n, e = d % n;
    for (unsigned p = 0; p < 32 / n; p++) {
      cu_xv4 a;
      memcpy(&a, (const char *)v + (p ^ hi) * CU_XW, CU_XW);
      a = cu_xor_in4(a, e);
      memcpy((char *)o + p * CU_XW, &a, CU_XW);
    }
  } else {
    const unsigned n = CU_XW / 8, hi = d / n, e = d % n;
    for (unsigned p = 0; p < 32 / n; p++) {
      cu_xv8 a;
      memcpy(&a, (const char *)v + (p ^ hi) * CU_XW, CU_XW);
      a = cu_xor_in8(a, e);
      memcpy((char *)o + p * CU_XW, &a, CU_XW);
    }
  }
}

/* A whole warp's shuffle up or down by d (uniform, at most 32) within
 * groups of w lanes (a power of two): o[l] = v[l + d] (down) or v[l - d]
 * (up) where that lane is in l's group, else v[l]. v is the middle of the
 * padded array the lowering fills (v[-32..63] readable). gcc: each piece
 * of the result one two-source permute of the pieces it comes from and a
 * blend with the lane's own value, where a lane loop's loads at an offset
 * of the values just stored stall (store forwarding) at every step of a
 * shuffle reduction; otherwise that lane loop. */
#if defined(__GNUC__) && !defined(__clang__)
#define CU_SHFL_SHIFT(NAME, T, VT, IOTA, DOWN)                                                  \
  static inline void NAME(void *restrict o, const void *restrict v, unsigned d, unsigned w) {  \
    enum { N = CU_XW / sizeof(T), P = 32 / N };                                                 \
    const VT iota = {IOTA};                                                                     \
    const unsigned q = d / N, r = d % N;                                                        \
    for (int p = 0; p < P; p++) {                                                               \
      /* the pieces lane p*N + k reads (a, then b): p + q and p + q + 1 down, p - q - 1 and  \
       * p - q up; clamped to the padding, where the blend keeps the lane's own value */       \
      int pa = DOWN ? p + (int)q : p - (int)q - 1, pb = pa + 1;                                 \
      pa = pa < -1 ? -1 : pa > P ? P : pa;                                                      \
      pb = pb < -1 ? -1 : pb > P ? P : pb;                                                      \
      VT a, b, self, s;                                                                         \
      memcpy(&a, (const char *)v + pa * CU_XW, sizeof a);                                       \
      memcpy(&b, (const char *)v + pb * CU_XW, sizeof b);                                       \
      memcpy(&self, (const char *)v + p * CU_XW, sizeof self);                                  \
      s = __builtin_shuffle(a, b, DOWN ? iota + r : iota + (N - r));                            \
      const VT in = (iota + (T)(p * N)) & (T)(w - 1);                                           \
      const VT m = DOWN ? (VT)(in + d < w) : (VT)(in >= d);                                     \
      self = (s & m) | (self & ~m);                                                             \
      memcpy((char *)o + p * CU_XW, &self, sizeof self);                                        \
    }                                                                                           \
  }
#else
#define CU_SHFL_SHIFT(NAME, T, VT, IOTA, DOWN)                                                  \
  static inline void NAME(void *restrict o, const void *restrict v, unsigned d, unsigned w) {  \
    for (int l = 0; l < 32; l++) {                                                              \
      const unsigned in = (unsigned)l & (w - 1);                                                \
      const int s = (DOWN ? in + d < w : in >= d) ? (DOWN ? l + (int)d : l - (int)d) : l;       \
      memcpy((char *)o + l * sizeof(T), (const char *)v + s * (int)sizeof(T), sizeof(T));       \
    }                                                                                           \
  }
#endif
CU_SHFL_SHIFT(cu_down_perm4, uint32_t, cu_xv4, CU_XI4, 1)
CU_SHFL_SHIFT(cu_up_perm4, uint32_t, cu_xv4, CU_XI4, 0)
CU_SHFL_SHIFT(cu_down_perm8, uint64_t, cu_xv8, CU_XI8, 1)
CU_SHFL_SHIFT(cu_up_perm8, uint64_t, cu_xv8, CU_XI8, 0)
#undef CU_SHFL_SHIFT

/* A grid-stride loop's read of n bytes at a: its next iteration's, at a +
 * step, prefetched (lowering/bprefetch.c; a prefetch never faults, so the
 * address may lie past the array at the last iteration) */
static inline void cu_prefetch_next(const void *a, long long step, long long n) {
  const char *q = (const char *)((uintptr_t)a + (uintptr_t)step);
  for (long long k = 0; k < n; k += 64) __builtin_prefetch(q + k);
}

/* a divergent loop's reads, the trip d ahead of a's: one trip where a
 * trip reads 1 KB or more of the array, more where it reads less (a warp's
 * 32 floats, 128 bytes: 8 trips), so that the lines come in time (Harris's
 * reduce6, a warp's grid-stride loop with an if inside: one trip ahead,
 * 68% of its time in the loads; 8 trips: 3.7x faster than none, on the
 * 16-core host 2-core and 16-core alike) */
static inline void cu_prefetch_trip(const void *a, long long step, long long n) {
  const long long d = n >= 1024 || n <= 0 ? 1 : (1024 + n - 1) / n;
  cu_prefetch_next(a, step * d, n);
}

/* prefetch the lines of n bytes from a (a block-level loop's next
 * iteration, lowering's W_LPF); a prefetch never faults */
static inline void cu_prefetch_run(const void *a, long long n) {
  uintptr_t q = (uintptr_t)a & ~(uintptr_t)63, e = (uintptr_t)a + (uintptr_t)n;
  for (; q < e; q += 64) __builtin_prefetch((const void *)q);
}

/* The lowest and highest of [al, ah] * [bl, bh] (lowering's bounds of a
 * block's threads, bound.c), each within 2^61 in magnitude: the products
 * in 128 bits, saturated just past 2^61 (outside every type's range that
 * the bounds check, so the block's test fails) */
static inline void cu_bmul(long long al, long long ah, long long bl, long long bh, long long *lo, long long *hi) {
  __int128 p[4] = {(__int128)al * bl, (__int128)al * bh, (__int128)ah * bl, (__int128)ah * bh};
  __int128 l = p[0], h = p[0];
  for (int i = 1; i < 4; i++) {
    if (p[i] < l) l = p[i];
    if (p[i] > h) h = p[i];
  }
  const __int128 lim = (__int128)1 << 62;
  *lo = (long long)(l < -lim ? -lim : l > lim ? lim : l);
  *hi = (long long)(h < -lim ? -lim : h > lim ? lim : h);
}

/* u - a of 64-bit indices for a run's count (cu_lanes_below), saturated
 * at +-2^62 instead of wrapping */
static inline long long cu_ldiff_u(unsigned long long u, unsigned long long a) {
  const unsigned long long m = 1ull << 62;
  return u >= a ? (long long)(u - a > m ? m : u - a) : -(long long)(a - u > m ? m : a - u);
}
static inline long long cu_ldiff_s(long long u, long long a) {
  long long d;
  if (__builtin_sub_overflow(u, a, &d)) return u > a ? 1ll << 62 : -(1ll << 62);
  return d > (1ll << 62) ? 1ll << 62 : d < -(1ll << 62) ? -(1ll << 62) : d;
}

/* the lanes of an interval [lo, hi) of a warp (lowering: a conjunction of
 * a lower and an upper bound on a lane value) */
static inline int cu_run_len(int lo, int hi) { return hi > lo ? hi - lo : 0; }

/* May a region take the fast version that mode bit `no` keeps it from? */
#define CU_TAKE(mode, no) (!((mode) & (CU_MODE_PROF | CU_MODE_SHUFFLE | (no))))

static inline void cu_row_next(const cu_block *B, unsigned *x, unsigned *y, unsigned *z) {
  if ((*x += 32u) == B->blockDim.x) {
    *x = 0;
    if (++*y == B->blockDim.y) {
      *y = 0;
      ++*z;
    }
  }
}

/* The same for warps of two half rows (blockDim.x == 16, blockDim.y even). */
/* Two warps on: n rows of a block 64 / n threads wide, blockDim.y % n == 0. */
static inline void cu_rows_next(const cu_block *B, unsigned *y, unsigned *z, unsigned n) {
  if ((*y += n) == B->blockDim.y) {
    *y = 0;
    ++*z;
  }
}

/* Where warp w begins, in whole rows and in pairs of half rows (a kernel
 * of warp coroutines runs one warp a call: runtime/src/warps.c). */
static inline void cu_row_at(const cu_block *B, unsigned w, unsigned *x, unsigned *y, unsigned *z) {
  unsigned t = 32u * w, r = t / B->blockDim.x;
  *x = t % B->blockDim.x;
  *y = r % B->blockDim.y;
  *z = r / B->blockDim.y;
}

static inline void cu_hrow_at(const cu_block *B, unsigned w, unsigned *y, unsigned *z) {
  *y = 2u * w % B->blockDim.y;
  *z = 2u * w / B->blockDim.y;
}

static inline void cu_hrow_next(const cu_block *B, unsigned *y, unsigned *z) {
  if ((*y += 2u) == B->blockDim.y) {
    *y = 0;
    ++*z;
  }
}

/* How many of lanes 0..n-1 lie below d: lanes l with l < d. */
/* In front of every lane loop. The lanes of a warp run one statement
 * together: a lane's store is not ordered before another lane's load in
 * that statement (on a GPU the warp's loads issue before its stores; without
 * a __syncwarp such a pair is a race). So the loop carries no dependence
 * the C compiler must keep, and it may vectorize without testing whether
 * `s[t]` and `s[t + stride]` overlap (they do when stride < vector width). */
#if defined(__clang__)
#define CU_LANES _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define CU_LANES _Pragma("GCC ivdep")
#else
#define CU_LANES
#endif

/* A copy of a warp's lanes (or two warps'), unrolled: as a loop, gcc makes it
 * `rep movs`, slow for 128 or 256 bytes (lowering/print.c, p_loopl_jam). */
#if defined(__clang__)
#define CU_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define CU_UNROLL _Pragma("GCC unroll 64")
#else
#define CU_UNROLL
#endif

/* __syncthreads() between regions: a call only where the block runs on a
 * simulated SM that may switch to another block; elsewhere the regions
 * simply follow one another (a call per barrier was 6% of a reduction) */
#define CU_BARRIER(B) (cu_nred ? cu_red_sync(B) : (void)0, (B)->resident ? cu_barrier(B) : (void)0)

/* a block's tag among the pending reductions (cucc_rt.h's cu_red) */
static inline unsigned long long cu_red_blk(const cu_block *B) {
  return B->blockIdx.x + (unsigned long long)B->gridDim.x * (B->blockIdx.y + (unsigned long long)B->gridDim.y * B->blockIdx.z);
}

/* at a barrier, the block's own pending reductions are done (its threads
 * may read the sum after it); a worker's pending entry is usually an
 * earlier block's (one atomicAdd per block into one total), which stays:
 * looked for here, not in a call per barrier */
static inline void cu_red_sync(const cu_block *B) {
  const unsigned long long b = cu_red_blk(B);
  for (int i = 0; i < cu_nred; i++)
    if (cu_reds[i].blk == b) {
      cu_red_flush(1, b);
      return;
    }
}
#define CU_RED_ADD(S, T, F, D)                                                                  \
  static inline void cu_red_add_##S(const cu_block *B, T *p, T v) {                           \
    const unsigned long long b = cu_red_blk(B);                                                \
    for (int i = 0; i < cu_nred; i++)                                                          \
      if (cu_reds[i].p == (void *)p && cu_reds[i].kind == D) {                                  \
        cu_reds[i].F += v;                                                                     \
        cu_reds[i].blk = b;                                                                    \
        return;                                                                                \
      }                                                                                        \
    if (cu_nred == CU_NRED) cu_red_flush(0, 0);                                                \
    cu_red *r = &cu_reds[cu_nred++];                                                           \
    r->p = p;                                                                                  \
    r->blk = b;                                                                                \
    r->kind = D;                                                                                \
    r->F = v;                                                                                  \
  }

static inline int cu_lanes_below(long long d, int n) { return d < 0 ? 0 : d > n ? n : (int)d; }
static inline int cu_imin(int a, int b) { return a < b ? a : b; }   /* (a run within a run: lowering's IFD_SUB) */
/* a row's base index of unsigned 32-bit type: under threadIdx.x >= stride,
 * XY[threadIdx.x - stride]'s first lane wraps below zero while the active
 * lanes' indices do not; on the GPU the sum wraps back, a C pointer built
 * from the wrapped base would not (no array has 2^32 - 1024 elements) */
static inline long long cu_ubase(unsigned b) { return b > 0xfffffc00u ? (long long)b - 0x100000000ll : (long long)b; }

/* Lanes l of n with (b + l) % u == 0: how many, the first (*f) and the
 * step between them (*s, at most n so that stepping past n cannot wrap).
 * u == 0 (undefined in CUDA) selects none. */
static inline int cu_lanes_divisible(long long b, long long u, int n, int *f, int *s) {
  if (u < 0) u = -u;
  /* u is a power of two in the usual cases (2 * stride): no divisions */
  int pow2 = u && !(u & (u - 1)), sh = pow2 ? __builtin_ctzll((unsigned long long)u) : 0;
  long long r = pow2 ? b & (u - 1) : u ? b % u : 0, first = r < 0 ? -r : r ? u - r : 0;
  *s = u < n ? (int)u : n;
  *f = u && first < n ? (int)first : n;
  if (!u || first >= n) return 0;
  return (int)(pow2 ? (n - 1 - first) >> sh : (n - 1 - first) / u) + 1;
}

/* Is any of lanes 0..n-1 set? (block-wide regions: n up to 1024; a
 * block's exit flags before every region, print.c's _clean). The bytes
 * are or-ed as bytes: an unsigned accumulator made gcc widen each byte to
 * 32 bits first, four times the vector work (perf: 7-10% of the guarded
 * tile-16 matmul, whose flags are tested twice a phase) */
static inline int cu_any_n(int n, const unsigned char *m) {
  unsigned char r = 0;
  for (int l = 0; l < n; l++) r |= m[l];
  return r != 0;
}

/* Is any lane of a mask set? */
static inline int cu_any(const unsigned char *m) {
  unsigned char r = 0;
  for (int l = 0; l < 32; l++) r |= m[l];
  return r != 0;
}


/* ---- lane masks as bits ---- */
/* (a byte compare and a byte-sign gather, pmovmskb, where x86 has them:
 * gcc does the loop a lane at a time, 49 instructions a mask) */
#if defined(__x86_64__) && defined(__AVX2__)
typedef char cu_vb32 __attribute__((vector_size(32)));
static inline unsigned cu_bits(const unsigned char *m) {
  cu_vb32 v;
  memcpy(&v, m, sizeof v);
  return ~(unsigned)__builtin_ia32_pmovmskb256((cu_vb32)(v == (cu_vb32){0}));
}
#elif defined(__x86_64__) && defined(__SSE2__)
typedef char cu_vb16 __attribute__((vector_size(16)));
static inline unsigned cu_bits(const unsigned char *m) {
  cu_vb16 a, b;
  memcpy(&a, m, sizeof a);
  memcpy(&b, m + 16, sizeof b);
  unsigned lo = (unsigned)__builtin_ia32_pmovmskb128((cu_vb16)(a == (cu_vb16){0}));
  unsigned hi = (unsigned)__builtin_ia32_pmovmskb128((cu_vb16)(b == (cu_vb16){0}));
  return ~(lo | hi << 16);
}
#else
static inline unsigned cu_bits(const unsigned char *m) {
  unsigned r = 0;
  for (int l = 0; l < 32; l++) r |= (unsigned)(m[l] != 0) << l;
  return r;
}
#endif
/* the first lane set in a mask (0 if none: a report's thread) */
static inline unsigned cu_lane0(const unsigned char *m) {
  unsigned b = cu_bits(m);
  return b ? (unsigned)__builtin_ctz(b) : 0u;
}
static inline unsigned cu_bits_nl(int nl) { return nl >= 32 ? 0xffffffffu : (1u << nl) - 1u; }

/* ---- warp collectives: one call computes every lane's result ----
 * `act` is the bitmask of lanes executing the call; a lane reads its
 * source lane's value as the programming guide specifies (a source outside
 * the lane's width-segment gives the lane its own value; each lane has its
 * own width, the instruction's operand being a register). A source lane
 * that does not execute the shuffle (outside the branch, or past a partial
 * warp's last thread) gives 0, as an H100 does: the guide leaves it
 * undefined, and code such as cuda-samples' reduce7 sums such reads. */
#define CU_SHFL(S, T)                                                                   \
  static inline void cu_shfl_##S(T *o, const T *v, const int *src, const int *wv, unsigned act) { \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        int w = cu_shfl_width(wv[l]);                                                   \
        int s = (l & ~(w - 1)) | (src[l] & (w - 1));                                    \
        o[l] = act >> s & 1 ? v[s] : (T)0;                                              \
      }                                                                                 \
  }                                                                                     \
  static inline void cu_shfl_up_##S(T *o, const T *v, const int *d, const int *wv, unsigned act) { \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        int w = cu_shfl_width(wv[l]);                                                   \
        o[l] = (unsigned)(l & (w - 1)) < (unsigned)d[l] ? v[l]                          \
               : act >> (l - d[l]) & 1 ? v[l - d[l]] : (T)0;                            \
      }                                                                                 \
  }                                                                                     \
  static inline void cu_shfl_down_##S(T *o, const T *v, const int *d, const int *wv, unsigned act) { \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        int w = cu_shfl_width(wv[l]);                                                   \
        o[l] = (unsigned)(l & (w - 1)) + (unsigned)d[l] >= (unsigned)w ? v[l]           \
               : act >> (l + d[l]) & 1 ? v[l + d[l]] : (T)0;                            \
      }                                                                                 \
  }                                                                                     \
  static inline void cu_shfl_xor_##S(T *o, const T *v, const int *x, const int *wv, unsigned act) { \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        int w = cu_shfl_width(wv[l]), s = l ^ x[l];                                                               \
        o[l] = !(s >= 0 && s < 32 && s < ((l | (w - 1)) + 1)) ? v[l]                    \
               : act >> s & 1 ? v[s] : (T)0;                                            \
      }                                                                                 \
  }                                                                                     \
  static inline void cu_match_any_##S(unsigned *o, const T *v, unsigned act) {          \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        unsigned r = 0;                                                                 \
        for (int k = 0; k < 32; k++) r |= (unsigned)((act >> k & 1) && v[k] == v[l]) << k; \
        o[l] = r;                                                                       \
      }                                                                                 \
  }                                                                                     \
  static inline void cu_match_all_##S(unsigned *o, const T *v, int *const *pred, unsigned act) { \
    int same = 1, first = -1;                                                           \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        if (first < 0) first = l;                                                      \
        else if (!(v[l] == v[first])) same = 0;                                        \
      }                                                                                 \
    for (int l = 0; l < 32; l++)                                                        \
      if (act >> l & 1) {                                                               \
        o[l] = same ? act : 0;                                                          \
        if (pred[l]) *pred[l] = same;                                                   \
      }                                                                                 \
  }
CU_SHFL(i, int)
CU_SHFL(u, unsigned int)
CU_SHFL(l, long)
CU_SHFL(ul, unsigned long)
CU_SHFL(ll, long long)
CU_SHFL(ull, unsigned long long)
CU_SHFL(f, float)
CU_SHFL(d, double)
/* the bits of a record of 1 or 2 bytes (a __half, __nv_bfloat16: the
 * frontend's bits_union) */
CU_SHFL(uc, unsigned char)
CU_SHFL(us, unsigned short)
#undef CU_SHFL

/* votes and reductions: the lanes that execute the call take part, those
 * its mask omits too, as on an H100 (tests/warp/gpu_behaviour.cu: every
 * lane calling __ballot_sync(0xffff, p) gets all 32 lanes' bits); the
 * guide calls such a mask undefined, and --check reports it */
/* (every lane taking part gets the same result: it is found once, in one
 * pass over the lanes the C compiler vectorizes, and handed to every lane
 * of the warp, taking part or not: the lowering reads a warp's result,
 * the same in all its lanes, from lane 0, lowering/shape.c's coll_shape) */
static inline unsigned cu_ballot1(const int *p, unsigned act) {
  unsigned r = 0;
  for (int k = 0; k < 32; k++) r |= (unsigned)(p[k] != 0) << k;
  return r & act;
}
static inline void cu_ballot(unsigned *o, const int *p, const unsigned *mask, unsigned act) {
  (void)mask;
  const unsigned r = cu_ballot1(p, act);
  for (int l = 0; l < 32; l++) o[l] = r;
}
static inline void cu_vote_any(int *o, const int *p, const unsigned *mask, unsigned act) {
  (void)mask;
  const int r = cu_ballot1(p, act) != 0;
  for (int l = 0; l < 32; l++) o[l] = r;
}
static inline void cu_vote_all(int *o, const int *p, const unsigned *mask, unsigned act) {
  (void)mask;
  const int r = cu_ballot1(p, act) == act;
  for (int l = 0; l < 32; l++) o[l] = r;
}
#define CU_REDUCE(NAME, S, T, INIT, OP)                                                 \
  static inline void cu_reduce_##NAME##_##S(T *o, const T *v, const unsigned *mask, unsigned act) { \
    (void)mask;                                                                         \
    T r = INIT;                                                                         \
    for (int k = 0; k < 32; k++) {                                                      \
      T x = act >> k & 1 ? v[k] : INIT;                                                 \
      r = OP;                                                                           \
    }                                                                                   \
    for (int l = 0; l < 32; l++) o[l] = r;                                              \
  }
CU_REDUCE(add, i, int, 0, (int)((unsigned)r + (unsigned)x))
CU_REDUCE(add, u, unsigned int, 0u, r + x)
CU_REDUCE(min, i, int, 2147483647, (x < r ? x : r))
CU_REDUCE(min, u, unsigned int, 0xffffffffu, (x < r ? x : r))
CU_REDUCE(max, i, int, (-2147483647 - 1), (x > r ? x : r))
CU_REDUCE(max, u, unsigned int, 0u, (x > r ? x : r))
CU_REDUCE(and, u, unsigned int, 0xffffffffu, r & x)
CU_REDUCE(or, u, unsigned int, 0u, r | x)
CU_REDUCE(xor, u, unsigned int, 0u, r ^ x)
#undef CU_REDUCE

/* ---- atomics: one lane at a time, atomic against other workers ---- */
#define CU_ATOMIC_INT(S, T)                                                                      \
  static inline T cu_atomicAdd_##S(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); } \
  static inline T cu_atomicSub_##S(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); } \
  static inline T cu_atomicAnd_##S(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); } \
  static inline T cu_atomicOr_##S(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }   \
  static inline T cu_atomicXor_##S(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); } \
  static inline T cu_atomicExch_##S(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); } \
  static inline T cu_atomicCAS_##S(T *p, T c, T v) {                                             \
    __atomic_compare_exchange_n(p, &c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                 \
    return c;                                                                                    \
  }                                                                                              \
  static inline T cu_atomicMin_##S(T *p, T v) {                                                  \
    T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                                  \
    while (v < o && !__atomic_compare_exchange_n(p, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
      ;                                                                                          \
    return o;                                                                                    \
  }                                                                                              \
  static inline T cu_atomicMax_##S(T *p, T v) {                                                  \
    T o = __atomic_load_n(p, __ATOMIC_RELAXED);                                                  \
    while (v > o && !__atomic_compare_exchange_n(p, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
      ;                                                                                          \
    return o;                                                                                    \
  }
CU_ATOMIC_INT(i, int)
CU_ATOMIC_INT(u, unsigned int)
CU_ATOMIC_INT(ll, long long)
CU_ATOMIC_INT(ull, unsigned long long)
#undef CU_ATOMIC_INT
/* (batched for a block's warps: lowering/batch.c, runtime/src/warps.c) */
static inline int cu_wb_atomicAdd_i(int *p, int v) { return (int)cu_warps_add(p, (unsigned)v, 4); }
static inline unsigned cu_wb_atomicAdd_u(unsigned *p, unsigned v) { return (unsigned)cu_warps_add(p, v, 4); }
static inline long long cu_wb_atomicAdd_ll(long long *p, long long v) {
  return (long long)cu_warps_add(p, (unsigned long long)v, 8);
}
static inline unsigned long long cu_wb_atomicAdd_ull(unsigned long long *p, unsigned long long v) {
  return cu_warps_add(p, v, 8);
}
static inline unsigned short cu_atomicCAS_us(unsigned short *p, unsigned short c, unsigned short v) {
  __atomic_compare_exchange_n(p, &c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return c;
}
/* atomicInc/atomicDec wrap around as CUDA defines them */
static inline unsigned cu_atomicInc_u(unsigned *p, unsigned v) {
  unsigned o = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &o, o >= v ? 0u : o + 1u, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
  return o;
}
static inline unsigned cu_atomicDec_u(unsigned *p, unsigned v) {
  unsigned o = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(p, &o, (o == 0u || o > v) ? v : o - 1u, 1, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED))
    ;
  return o;
}
#define CU_ATOMIC_FLT(S, T, U)                                                                  \
  static inline T cu_atomicAdd_##S(T *p, T v) {                                                 \
    U o = __atomic_load_n((U *)p, __ATOMIC_RELAXED), n;                                         \
    T f, r;                                                                                     \
    do {                                                                                        \
      memcpy(&f, &o, sizeof f);                                                                 \
      r = f + v;                                                                                \
      memcpy(&n, &r, sizeof n);                                                                 \
    } while (!__atomic_compare_exchange_n((U *)p, &o, n, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
    return f;                                                                                   \
  }                                                                                             \
  static inline T cu_atomicExch_##S(T *p, T v) {                                                \
    U n, o;                                                                                     \
    T r;                                                                                        \
    memcpy(&n, &v, sizeof n);                                                                   \
    o = __atomic_exchange_n((U *)p, n, __ATOMIC_RELAXED);                                       \
    memcpy(&r, &o, sizeof r);                                                                   \
    return r;                                                                                   \
  }
CU_ATOMIC_FLT(f, float, unsigned int)
CU_ATOMIC_FLT(d, double, unsigned long long)
#undef CU_ATOMIC_FLT
CU_RED_ADD(f, float, f, CU_RED_F)
CU_RED_ADD(d, double, d, CU_RED_D)
CU_RED_ADD(i, int, u, CU_RED_U32)
CU_RED_ADD(u, unsigned int, u, CU_RED_U32)
CU_RED_ADD(ll, long long, u, CU_RED_U64)
CU_RED_ADD(ull, unsigned long long, u, CU_RED_U64)
#undef CU_RED_ADD

/* cuda_math.h's Bessel functions: glibc's */
static inline double __cucc_j0(double x) { return j0(x); }
static inline double __cucc_j1(double x) { return j1(x); }
static inline double __cucc_jn(int n, double x) { return jn(n, x); }
static inline double __cucc_y0(double x) { return y0(x); }
static inline double __cucc_y1(double x) { return y1(x); }
static inline double __cucc_yn(int n, double x) { return yn(n, x); }

/* ---- expf as lane loops want it, in float only (16 lanes per AVX-512
 * instruction; a double polynomial took twice the instructions): 2^n e^r
 * with r = x - n ln 2 in two parts (Cody and Waite), e^r by Cephes' degree-6
 * polynomial, 2^n applied in two halves so that results near overflow and
 * in the subnormals are scaled, and rounded, once each. No branch, no call.
 * Checked on all 2^32 floats against exp in double: at most 1.02 ulp (CUDA's
 * expf: 2 ulp; __expf: 2 + |1.16 x|); infinities, zeros, subnormals and NaN
 * as expf gives them. ---- */
static inline float __cucc_expf(float x) {
  float xc = x > 100.0f ? 100.0f : x < -110.0f ? -110.0f : x == x ? x : 0.0f;   /* (NaN: below) */
  float n = __builtin_rintf(xc * 1.44269504088896341f);
  float r = xc - n * 0.693359375f + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  int ni = (int)n, h = ni >> 1;
  int a = (h + 127) << 23, b = (ni - h + 127) << 23;   /* 2^h 2^(n-h): each a normal float */
  float sa, sb;
  memcpy(&sa, &a, sizeof sa);
  memcpy(&sb, &b, sizeof sb);
  return x == x ? p * sa * sb : x;
}

/* ---- logf likewise, in float: the exponent from the bits (a subnormal
 * scaled to a normal first), the mantissa in [sqrt(1/2), sqrt(2)) less 1,
 * log(1 + m) by Cephes' degree-9 polynomial, e ln 2 added in two parts.
 * Checked on all 2^32 floats against log in double: at most 0.79 ulp
 * (CUDA's logf: 1 ulp), 2^-24.6 absolute in [0.5, 2] (__logf: 2^-21.41);
 * special values as logf gives them. log2f and log10f: the same
 * exponent and mantissa, the series in double (at most 0.500 ulp: CUDA
 * log2f 1 ulp). ---- */
static inline float cu_logfin(float x, float y) {
  y = x == 0.0f ? -__builtin_inff() : y;
  y = x < 0.0f || x != x ? __builtin_nanf("") : y;
  return x == __builtin_inff() ? x : y;
}
static inline float __cucc_logf(float x) {
  int sub = x < 1.17549435e-38f;
  float xs = sub ? x * 16777216.0f : x;
  int xi;
  memcpy(&xi, &xs, sizeof xi);
  float e = (float)(((xi >> 23) & 0xff) - 126 - (sub ? 24 : 0));
  xi = (xi & 0x807fffff) | 0x3f000000;
  float m;
  memcpy(&m, &xi, sizeof m);   /* in [0.5, 1) */
  int lo = m < 0.707106781186547524f;
  e = lo ? e - 1.0f : e;
  m = lo ? m + m - 1.0f : m - 1.0f;
  float z = m * m, y = 7.0376836292e-2f;
  y = y * m - 1.1514610310e-1f;
  y = y * m + 1.1676998740e-1f;
  y = y * m - 1.2420140846e-1f;
  y = y * m + 1.4249322787e-1f;
  y = y * m - 1.6668057665e-1f;
  y = y * m + 2.0000714765e-1f;
  y = y * m - 2.4999993993e-1f;
  y = y * m + 3.3333331174e-1f;
  y = y * m * z - 2.12194440e-4f * e - 0.5f * z;
  return cu_logfin(x, m + y + 0.693359375f * e);
}
static inline double cu_logd(float x) {
  int sub = x < 1.17549435e-38f;
  float xs = sub ? x * 16777216.0f : x;
  unsigned u;
  memcpy(&u, &xs, sizeof u);
  int e = (int)((u >> 23) & 0xff) - 127 - (sub ? 24 : 0);
  unsigned mb = (u & 0x7fffffu) | 0x3f800000u;
  float mf;
  memcpy(&mf, &mb, sizeof mf);
  double m = mf;
  int big = m > 1.4142135623730951;
  m = big ? m * 0.5 : m;
  e += big;
  double s = (m - 1.0) / (m + 1.0), z = s * s;
  double l = 2.0 * s * (1.0 + z * (1.0 / 3 + z * (1.0 / 5 + z * (1.0 / 7 + z * (1.0 / 9 + z * (1.0 / 11 + z * (1.0 / 13)))))));
  return e * 0.69314718055994530942 + l;
}
static inline float __cucc_log2f(float x) { return cu_logfin(x, (float)(cu_logd(x) * 1.4426950408889634074)); }
static inline float __cucc_log10f(float x) { return cu_logfin(x, (float)(cu_logd(x) * 0.43429448190325182765)); }

/* ---- float math that vectorizes in lane loops (cuda_math.h's sinf,
 * cosf, exp2f and the fast intrinsics __sinf, __cosf, __powf,
 * __exp10f): with GCC on x86-64, glibc's own functions declared with their
 * libmvec vector variants (a lane loop calls one per 16 lanes); else the
 * scalar ones. Measured over every float: sinf 1.7, cosf 1.8, exp2f 1.0
 * ulp (CUDA: 2; not tanhf, 2.07 near 0.24). expf and the logs are ours,
 * above. The ones
 * glibc 2.35 added are scalar before it. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define CU_VM(f, a) float __cucc_v##f a __asm__(#f) __attribute__((simd("notinbranch"), const, nothrow, leaf));
#if __GLIBC_PREREQ(2, 35)
#define CU_VM2(f, a) CU_VM(f, a)
#endif
#endif
#ifndef CU_VM
#define CU_VM(f, a)
#endif
#ifndef CU_VM2
#define CU_VM2(f, a)
#define CU_VM2_SCALAR 1
#endif
CU_VM(sinf, (float)) CU_VM(cosf, (float)) CU_VM(powf, (float, float))
CU_VM2(exp2f, (float)) CU_VM2(exp10f, (float))
#if !defined(__GNUC__) || defined(__clang__) || !defined(__x86_64__) || !defined(__GLIBC__)
static inline float __cucc_vsinf(float x) { return sinf(x); }
static inline float __cucc_vcosf(float x) { return cosf(x); }
static inline float __cucc_vpowf(float x, float y) { return powf(x, y); }
#endif
#ifdef CU_VM2_SCALAR
static inline float __cucc_vexp2f(float x) { return exp2f(x); }
static inline float __cucc_vexp10f(float x) { return powf(10.0f, x); }
#endif
#undef CU_VM
#undef CU_VM2
#define __cucc_vexpf __cucc_expf
#define __cucc_vlogf __cucc_logf
#define __cucc_vlog2f __cucc_log2f
#define __cucc_vlog10f __cucc_log10f

/* ---- atomics on the block's own __shared__ variables: a block runs on
 * one worker thread (its warps switch only at barriers and between
 * statements), so nothing else touches them between the load and the
 * store: a plain read-modify-write, which the C compiler can keep in
 * registers, instead of a locked instruction (print.c, shared_atomic).
 * Lanes in one lane loop may hit one element (a histogram's bin): the
 * empty asm on *p keeps the loop from being vectorized (CU_LANES says its
 * iterations are independent), so they add up one after another ---- */
#define CU_SEQ(p) __asm__ volatile("" : "+m"(*(p)))
#define CU_SATOMIC_INT(S, T, U)                                                                    \
  static inline T cu_satomicAdd_##S(T *p, T v) { T o = *p; *p = (T)((U)o + (U)v); CU_SEQ(p); return o; }       \
  static inline T cu_satomicSub_##S(T *p, T v) { T o = *p; *p = (T)((U)o - (U)v); CU_SEQ(p); return o; }       \
  static inline T cu_satomicAnd_##S(T *p, T v) { T o = *p; *p = o & v; CU_SEQ(p); return o; }                 \
  static inline T cu_satomicOr_##S(T *p, T v) { T o = *p; *p = o | v; CU_SEQ(p); return o; }                  \
  static inline T cu_satomicXor_##S(T *p, T v) { T o = *p; *p = o ^ v; CU_SEQ(p); return o; }                 \
  static inline T cu_satomicExch_##S(T *p, T v) { T o = *p; *p = v; CU_SEQ(p); return o; }                    \
  static inline T cu_satomicCAS_##S(T *p, T c, T v) { T o = *p; if (o == c) *p = v; CU_SEQ(p); return o; }    \
  static inline T cu_satomicMin_##S(T *p, T v) { T o = *p; if (v < o) *p = v; CU_SEQ(p); return o; }          \
  static inline T cu_satomicMax_##S(T *p, T v) { T o = *p; if (v > o) *p = v; CU_SEQ(p); return o; }
CU_SATOMIC_INT(i, int, unsigned)
CU_SATOMIC_INT(u, unsigned int, unsigned)
CU_SATOMIC_INT(ll, long long, unsigned long long)
CU_SATOMIC_INT(ull, unsigned long long, unsigned long long)
#undef CU_SATOMIC_INT
static inline unsigned short cu_satomicCAS_us(unsigned short *p, unsigned short c, unsigned short v) {
  unsigned short o = *p;
  if (o == c) *p = v;
  CU_SEQ(p);
  return o;
}
static inline unsigned cu_satomicInc_u(unsigned *p, unsigned v) { unsigned o = *p; *p = o >= v ? 0u : o + 1u; CU_SEQ(p); return o; }
static inline unsigned cu_satomicDec_u(unsigned *p, unsigned v) {
  unsigned o = *p;
  *p = (o == 0u || o > v) ? v : o - 1u;
  CU_SEQ(p);
  return o;
}
static inline float cu_satomicAdd_f(float *p, float v) { float o = *p; *p = o + v; CU_SEQ(p); return o; }
static inline float cu_satomicExch_f(float *p, float v) { float o = *p; *p = v; CU_SEQ(p); return o; }
static inline double cu_satomicAdd_d(double *p, double v) { double o = *p; *p = o + v; CU_SEQ(p); return o; }
static inline double cu_satomicExch_d(double *p, double v) { double o = *p; *p = v; CU_SEQ(p); return o; }

/* CUDA 12.8's __nv_atomic_* (the frontend passes the call through with its
 * order and scope): __NV_ATOMIC_RELAXED..SEQ_CST are numbered as the C
 * compiler's __ATOMIC_* orders, so the order goes straight to the builtin;
 * every scope is the whole machine here. Arithmetic by type suffix; load,
 * store, exchange and compare-exchange on any type, as CUDA's are. */
#define CU_NV_INT(S, T)                                                                          \
  static inline T cu_nv_fetch_add_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_add(p, v, o); } \
  static inline T cu_nv_fetch_sub_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_sub(p, v, o); } \
  static inline T cu_nv_fetch_and_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_and(p, v, o); } \
  static inline T cu_nv_fetch_or_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_or(p, v, o); }   \
  static inline T cu_nv_fetch_xor_##S(T *p, T v, int o, int sc) { (void)sc; return __atomic_fetch_xor(p, v, o); } \
  static inline T cu_nv_fetch_min_##S(T *p, T v, int o, int sc) {                                 \
    T x = __atomic_load_n(p, __ATOMIC_RELAXED);                                                   \
    (void)sc;                                                                                     \
    while (v < x && !__atomic_compare_exchange_n(p, &x, v, 1, o, __ATOMIC_RELAXED))               \
      ;                                                                                           \
    return x;                                                                                     \
  }                                                                                               \
  static inline T cu_nv_fetch_max_##S(T *p, T v, int o, int sc) {                                 \
    T x = __atomic_load_n(p, __ATOMIC_RELAXED);                                                   \
    (void)sc;                                                                                     \
    while (v > x && !__atomic_compare_exchange_n(p, &x, v, 1, o, __ATOMIC_RELAXED))               \
      ;                                                                                           \
    return x;                                                                                     \
  }
CU_NV_INT(i, int)
CU_NV_INT(u, unsigned int)
CU_NV_INT(ll, long long)
CU_NV_INT(ull, unsigned long long)
#undef CU_NV_INT
/* floating add and sub: the compare-exchange loop, fenced unless relaxed */
#define CU_NV_FLT(S, T)                                                                          \
  static inline T cu_nv_fetch_add_##S(T *p, T v, int o, int sc) {                                \
    (void)sc;                                                                                    \
    if (o != __ATOMIC_RELAXED) __atomic_thread_fence(__ATOMIC_SEQ_CST);                          \
    T r = cu_atomicAdd_##S(p, v);                                                                \
    if (o != __ATOMIC_RELAXED) __atomic_thread_fence(__ATOMIC_SEQ_CST);                          \
    return r;                                                                                    \
  }                                                                                              \
  static inline T cu_nv_fetch_sub_##S(T *p, T v, int o, int sc) { return cu_nv_fetch_add_##S(p, -v, o, sc); }
CU_NV_FLT(f, float)
CU_NV_FLT(d, double)
#undef CU_NV_FLT
#define cu_nv_load_n(p, o, ...) __atomic_load_n((p), (o))
#define cu_nv_store_n(p, v, o, ...) __atomic_store_n((p), (v), (o))
#define cu_nv_exchange_n(p, v, o, ...) __atomic_exchange_n((p), (v), (o))
#define cu_nv_compare_exchange_n(p, e, d, w, so, fo, ...) __atomic_compare_exchange_n((p), (e), (d), (w), (so), (fo))
/* The by-value forms take a struct of 4, 8 or 16 bytes (CUDA's rule),
 * aligned to its size as on the GPU. Its alignment in C may be less (a pair
 * of ints: 4), and then clang calls libatomic's generic functions where gcc
 * inlines; as an integer of its size the atomic is one instruction with
 * either (16 bytes: libatomic, linked by the driver). */
typedef uint32_t __attribute__((may_alias, aligned(4))) cu_av4;
typedef uint64_t __attribute__((may_alias, aligned(8))) cu_av8;
typedef unsigned __int128 __attribute__((may_alias, aligned(16))) cu_av16;
#define CU_AVP(p, q)                                                                   \
  __builtin_choose_expr(sizeof(*(p)) == 4, (cu_av4 *)(void *)(q),                      \
                        __builtin_choose_expr(sizeof(*(p)) == 8, (cu_av8 *)(void *)(q), \
                                              (cu_av16 *)(void *)(q)))
#define CU_AVN(p) (void)sizeof(char[sizeof(*(p)) == 4 || sizeof(*(p)) == 8 || sizeof(*(p)) == 16 ? 1 : -1])
#define cu_nv_load(p, r, o, ...) (CU_AVN(p), __atomic_load(CU_AVP(p, p), CU_AVP(p, r), (o)))
#define cu_nv_store(p, v, o, ...) (CU_AVN(p), __atomic_store(CU_AVP(p, p), CU_AVP(p, v), (o)))
#define cu_nv_exchange(p, v, r, o, ...) \
  (CU_AVN(p), __atomic_exchange(CU_AVP(p, p), CU_AVP(p, v), CU_AVP(p, r), (o)))
#define cu_nv_compare_exchange(p, e, d, w, so, fo, ...) \
  (CU_AVN(p), __atomic_compare_exchange(CU_AVP(p, p), CU_AVP(p, e), CU_AVP(p, d), (w), (so), (fo)))
#define cu_nv_thread_fence(o, ...) __atomic_thread_fence(o)

/* ---- dynamic parallelism (runtime/src/cdp.c): a launch from device code
 * (lowering/print.c, p_launch) and the runtime API device code may call,
 * handles and pointers passed as void * ---- */
void cu_dlaunch(const cu_block *B, unsigned tid, const char *key, cu_idx3 g, cu_idx3 b, size_t smem, void *stream,
                void **args);
#define CU_DRT const cu_block *B, unsigned tid   /* the calling thread */
int cu_d_cudaMalloc(CU_DRT, void *p, size_t n);
int cu_d_cudaFree(CU_DRT, void *p);
int cu_d_cudaMemcpyAsync(CU_DRT, void *dst, void *src, size_t n, int kind, void *s);
int cu_d_cudaMemsetAsync(CU_DRT, void *p, int v, size_t n, void *s);
int cu_d_cudaGetLastError(CU_DRT);
int cu_d_cudaPeekAtLastError(CU_DRT);
const char *cu_d_cudaGetErrorString(CU_DRT, int e);
const char *cu_d_cudaGetErrorName(CU_DRT, int e);
int cu_d_cudaGetDevice(CU_DRT, void *dev);
int cu_d_cudaDeviceGetAttribute(CU_DRT, void *v, int attr, int dev);
int cu_d_cudaDeviceGetLimit(CU_DRT, void *v, int limit);
int cu_d_cudaStreamCreateWithFlags(CU_DRT, void *s, unsigned flags);
int cu_d_cudaStreamDestroy(CU_DRT, void *s);
int cu_d_cudaStreamWaitEvent(CU_DRT, void *s, void *e, unsigned flags);
int cu_d_cudaEventCreateWithFlags(CU_DRT, void *e, unsigned flags);
int cu_d_cudaEventRecord(CU_DRT, void *e, void *s);
int cu_d_cudaEventRecordWithFlags(CU_DRT, void *e, void *s, unsigned flags);
int cu_d_cudaEventDestroy(CU_DRT, void *e);
#undef CU_DRT

/* ---- inline PTX (frontend/ptx.c): one pure helper per instruction and
 * type that the IR has no operator for ---- */
int cu_ptx_nsmid(void);   /* the modelled GPU's SMs (runtime) */
const unsigned int *cu_curand_xorwow_powers(void);   /* curand_kernel.h's tables (runtime) */
#define CU_PTX_INT(S, T, W, UT, SG)                                                                       \
  static inline T cu_ptx_mul_hi_##S(T a, T b) { return (T)(((W)a * (W)b) >> (8 * sizeof(T))); }       \
  static inline T cu_ptx_mad_lo_##S(T a, T b, T c) { return (T)((UT)a * (UT)b + (UT)c); }              \
  static inline T cu_ptx_mad_hi_##S(T a, T b, T c) { return (T)((UT)cu_ptx_mul_hi_##S(a, b) + (UT)c); } \
  static inline T cu_ptx_min_##S(T a, T b) { return a < b ? a : b; }                                    \
  static inline T cu_ptx_max_##S(T a, T b) { return a > b ? a : b; }                                    \
  static inline T cu_ptx_bfe_##S(T a, unsigned p, unsigned l) {                                         \
    unsigned n = 8 * sizeof(T);                                                                         \
    p &= 0xff, l &= 0xff;                                                                               \
    if (l == 0) return 0;                                                                               \
    if (p >= n) p = n - 1, l = 1; /* (the sign bit, for a signed field past the end) */               \
    if (p + l > n) l = n - p;                                                                           \
    UT f = ((UT)a >> p) & (l == n ? (UT)-1 : (((UT)1 << l) - 1));                                       \
    if (SG && l < n && (f >> (l - 1) & 1)) f |= (UT)-1 << l; /* sign-extended */                      \
    return (T)f;                                                                                        \
  }                                                                                                     \
  static inline unsigned cu_ptx_bfind_##S(T a) {                                                        \
    UT x = SG && (UT)a >> (8 * sizeof(T) - 1) ? ~(UT)a : (UT)a;   /* the most significant non-sign bit */ \
    if (!x) return 0xffffffffu;                                                                         \
    return (unsigned)(8 * sizeof(T) - 1 - (sizeof(T) == 8 ? __builtin_clzll(x) : __builtin_clz((unsigned)x))); \
  }                                                                                                     \
  static inline unsigned cu_ptx_bfind_shiftamt_##S(T a) {                                               \
    unsigned r = cu_ptx_bfind_##S(a);                                                                   \
    return r == 0xffffffffu ? r : (unsigned)(8 * sizeof(T) - 1) - r;                                     \
  }
CU_PTX_INT(u32, unsigned, unsigned long long, unsigned, 0)
CU_PTX_INT(s32, int, long long, unsigned, 1)
CU_PTX_INT(u64, unsigned long long, unsigned __int128, unsigned long long, 0)
CU_PTX_INT(s64, long long, __int128, unsigned long long, 1)
#undef CU_PTX_INT
static inline unsigned long long cu_ptx_mul_wide_u32(unsigned a, unsigned b) { return (unsigned long long)a * b; }
static inline long long cu_ptx_mul_wide_s32(int a, int b) { return (long long)a * b; }
static inline unsigned long long cu_ptx_mad_wide_u32(unsigned a, unsigned b, unsigned long long c) {
  return (unsigned long long)a * b + c;
}
static inline long long cu_ptx_mad_wide_s32(int a, int b, long long c) { return (long long)a * b + c; }
static inline float cu_ptx_min_f32(float a, float b) { return fminf(a, b); }
static inline float cu_ptx_max_f32(float a, float b) { return fmaxf(a, b); }
static inline double cu_ptx_min_f64(double a, double b) { return fmin(a, b); }
static inline double cu_ptx_max_f64(double a, double b) { return fmax(a, b); }
static inline int cu_ptx_abs_s32(int a) { return a < 0 ? (int)(0u - (unsigned)a) : a; }
static inline long long cu_ptx_abs_s64(long long a) { return a < 0 ? (long long)(0ull - (unsigned long long)a) : a; }
static inline float cu_ptx_abs_f32(float a) { return fabsf(a); }
static inline double cu_ptx_abs_f64(double a) { return fabs(a); }
/* bfi d, a, b, pos, len: a's low len bits into b at pos */
static inline unsigned cu_ptx_bfi_u32(unsigned a, unsigned b, unsigned p, unsigned l) {
  p &= 0xff, l &= 0xff;
  if (l == 0 || p >= 32) return b;
  if (p + l > 32) l = 32 - p;
  unsigned m = (l == 32 ? 0xffffffffu : ((1u << l) - 1)) << p;
  return (b & ~m) | ((a << p) & m);
}
static inline unsigned long long cu_ptx_bfi_u64(unsigned long long a, unsigned long long b, unsigned p, unsigned l) {
  p &= 0xff, l &= 0xff;
  if (l == 0 || p >= 64) return b;
  if (p + l > 64) l = 64 - p;
  unsigned long long m = (l == 64 ? ~0ull : ((1ull << l) - 1)) << p;
  return (b & ~m) | ((a << p) & m);
}
/* prmt (the default mode): each selector nibble picks a byte of b:a; its
 * top bit replicates that byte's sign */
/* a register's bits as another type (frontend/ptx.c, opnd) */
static inline unsigned cu_ptx_bits_u32(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float cu_ptx_bits_f32(unsigned u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline unsigned long long cu_ptx_bits_u64(double d) {
  unsigned long long u;
  memcpy(&u, &d, 8);
  return u;
}
static inline double cu_ptx_bits_f64(unsigned long long u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static inline unsigned cu_ptx_prmt_u32(unsigned a, unsigned b, unsigned c) {
  unsigned long long v = ((unsigned long long)b << 32) | a;
  unsigned r = 0;
  for (int i = 0; i < 4; i++) {
    unsigned s = (c >> (4 * i)) & 0xf, byte = (unsigned)(v >> ((s & 7) * 8)) & 0xff;
    if (s & 8) byte = byte & 0x80 ? 0xff : 0;
    r |= byte << (8 * i);
  }
  return r;
}
static inline unsigned cu_ptx_brev_u32(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
static inline unsigned long long cu_ptx_brev_u64(unsigned long long x) {
  return ((unsigned long long)cu_ptx_brev_u32((unsigned)x) << 32) | cu_ptx_brev_u32((unsigned)(x >> 32));
}
static inline unsigned cu_ptx_popc_u32(unsigned x) { return (unsigned)__builtin_popcount(x); }
static inline unsigned cu_ptx_popc_u64(unsigned long long x) { return (unsigned)__builtin_popcountll(x); }
static inline unsigned cu_ptx_clz_u32(unsigned x) { return x ? (unsigned)__builtin_clz(x) : 32u; }
static inline unsigned cu_ptx_clz_u64(unsigned long long x) { return x ? (unsigned)__builtin_clzll(x) : 64u; }
static inline float cu_ptx_fma_rn_f32(float a, float b, float c) { return fmaf(a, b, c); }
static inline double cu_ptx_fma_rn_f64(double a, double b, double c) { return fma(a, b, c); }
static inline float cu_ptx_rcp_f32(float a) { return 1.0f / a; }
static inline float cu_ptx_rcp_rn_f32(float a) { return 1.0f / a; }
static inline double cu_ptx_rcp_f64(double a) { return 1.0 / a; }
static inline double cu_ptx_rcp_rn_f64(double a) { return 1.0 / a; }
static inline float cu_ptx_sqrt_f32(float a) { return sqrtf(a); }
static inline float cu_ptx_sqrt_rn_f32(float a) { return sqrtf(a); }
static inline double cu_ptx_sqrt_f64(double a) { return sqrt(a); }
static inline double cu_ptx_sqrt_rn_f64(double a) { return sqrt(a); }
static inline float cu_ptx_rsqrt_f32(float a) { return 1.0f / sqrtf(a); }
static inline double cu_ptx_rsqrt_f64(double a) { return 1.0 / sqrt(a); }
static inline float cu_ptx_ex2_f32(float a) { return exp2f(a); }
static inline float cu_ptx_lg2_f32(float a) { return log2f(a); }
static inline float cu_ptx_sin_f32(float a) { return sinf(a); }
static inline float cu_ptx_cos_f32(float a) { return cosf(a); }
static inline float cu_ptx_tanh_f32(float a) { return tanhf(a); }
/* copysign.f32 d, a, b: b with a's sign */
static inline float cu_ptx_copysign_f32(float a, float b) { return copysignf(b, a); }
static inline double cu_ptx_copysign_f64(double a, double b) { return copysign(b, a); }
static inline unsigned cu_ptx_sad_u32(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
static inline int cu_ptx_sad_s32(int a, int b, int c) {
  return (int)((unsigned)c + (a > b ? (unsigned)a - (unsigned)b : (unsigned)b - (unsigned)a));
}
/* SIMD video instructions on 4 bytes (2 halves): each part alone, then
 * packed, or with .add their sum plus c */
#define CU_PTX_V(NAME, N, SIGNED, EXPR)                                                      \
  static inline unsigned cu_ptx_##NAME(unsigned a, unsigned b) {                           \
    unsigned r = 0, w = 32 / N, m = (1u << w) - 1;                                         \
    for (int i = 0; i < N; i++) {                                                          \
      int x = (int)((a >> (w * i)) & m), y = (int)((b >> (w * i)) & m);                    \
      if (SIGNED) x = x << (32 - w) >> (32 - w), y = y << (32 - w) >> (32 - w);            \
      r |= ((unsigned)(EXPR) & m) << (w * i);                                              \
    }                                                                                      \
    return r;                                                                              \
  }                                                                                        \
  static inline unsigned cu_ptx_##NAME##_sum(unsigned a, unsigned b) {                     \
    unsigned r = 0, w = 32 / N, m = (1u << w) - 1;                                         \
    for (int i = 0; i < N; i++) {                                                          \
      int x = (int)((a >> (w * i)) & m), y = (int)((b >> (w * i)) & m);                    \
      if (SIGNED) x = x << (32 - w) >> (32 - w), y = y << (32 - w) >> (32 - w);            \
      r += (unsigned)(EXPR);                                                               \
    }                                                                                      \
    return r;                                                                              \
  }
CU_PTX_V(vabsdiff4_u32, 4, 0, x > y ? x - y : y - x)
CU_PTX_V(vabsdiff4_s32, 4, 1, x > y ? x - y : y - x)
CU_PTX_V(vadd4_u32, 4, 0, x + y)
CU_PTX_V(vsub4_u32, 4, 0, x - y)
CU_PTX_V(vmin4_u32, 4, 0, x < y ? x : y)
CU_PTX_V(vmax4_u32, 4, 0, x > y ? x : y)
CU_PTX_V(vmin4_s32, 4, 1, x < y ? x : y)
CU_PTX_V(vmax4_s32, 4, 1, x > y ? x : y)
CU_PTX_V(vabsdiff2_u32, 2, 0, x > y ? x - y : y - x)
CU_PTX_V(vadd2_u32, 2, 0, x + y)
CU_PTX_V(vsub2_u32, 2, 0, x - y)
#undef CU_PTX_V
static inline unsigned cu_ptx_vabsdiff4_add_u32(unsigned a, unsigned b, unsigned c) { return cu_ptx_vabsdiff4_u32_sum(a, b) + c; }
static inline unsigned cu_ptx_vabsdiff4_add_s32(unsigned a, unsigned b, unsigned c) { return cu_ptx_vabsdiff4_s32_sum(a, b) + c; }
static inline unsigned cu_ptx_vabsdiff2_add_u32(unsigned a, unsigned b, unsigned c) { return cu_ptx_vabsdiff2_u32_sum(a, b) + c; }
/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: a funnel shift of b:a */
static inline unsigned cu_ptx_shf_l_wrap_u32(unsigned a, unsigned b, unsigned c) {
  return (unsigned)(((((unsigned long long)b << 32) | a) << (c & 31)) >> 32);
}
static inline unsigned cu_ptx_shf_l_clamp_u32(unsigned a, unsigned b, unsigned c) {
  return c >= 32 ? a : cu_ptx_shf_l_wrap_u32(a, b, c);
}
static inline unsigned cu_ptx_shf_r_wrap_u32(unsigned a, unsigned b, unsigned c) {
  return (unsigned)((((unsigned long long)b << 32) | a) >> (c & 31));
}
static inline unsigned cu_ptx_shf_r_clamp_u32(unsigned a, unsigned b, unsigned c) {
  return c >= 32 ? b : cu_ptx_shf_r_wrap_u32(a, b, c);
}
/* lop3.b32 d, a, b, c, lut: each bit of d is lut's bit at (a b c) */
static inline unsigned cu_ptx_lop3_u32(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned r = 0;
  for (int k = 0; k < 8; k++)
    if (lut >> k & 1) r |= (k & 4 ? a : ~a) & (k & 2 ? b : ~b) & (k & 1 ? c : ~c);
  return r;
}
/* dp4a: four byte products summed, plus c */
static inline unsigned cu_ptx_dp4a_u32(unsigned a, unsigned b, unsigned c) {
  for (int i = 0; i < 4; i++) c += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
  return c;
}
static inline int cu_ptx_dp4a_s32(int a, int b, int c) {
  for (int i = 0; i < 4; i++) c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
  return c;
}
/* ---- arithmetic in a chosen rounding (device_functions.h's __fadd_rz and
 * friends, PTX's .rz/.rm/.rp): m 0 nearest even, 1 toward zero, 2 up, 3
 * down. The result is the nearest one, moved one step where the exact error
 * (from an error-free transform: TwoSum for sums, an fma for products,
 * quotients and square roots) says the exact value lies beyond it in the
 * asked direction. A result that overflowed to infinity from finite
 * operands comes back as the largest finite value where the direction says
 * so; an exact zero sum is -0 rounding down. (Operands and results below
 * the normal range are not exact.) */
#define CU_RND(T, S, NX, MAXV)                                                          \
  static inline T __cu_dev_rnd##S(T r, T err, int fin, int m) {                         \
    if (m == 0 || r != r) return r;                                                     \
    if (__builtin_isinf(r) && fin) {                                                    \
      if (m == 1 || (m == 2 && r < 0) || (m == 3 && r > 0)) return r > 0 ? MAXV : -MAXV; \
      return r;                                                                         \
    }                                                                                   \
    if (err != err) return r;                                                           \
    if (m == 2 && err > 0) return NX(r, (T)__builtin_inf());                            \
    if (m == 3 && err < 0) return NX(r, -(T)__builtin_inf());                           \
    if (m == 1 && ((r > 0 && err < 0) || (r < 0 && err > 0))) return NX(r, (T)0);       \
    return r;                                                                           \
  }                                                                                     \
  static inline T __cu_dev_add##S(T a, T b, int m) {                                    \
    T r = a + b, bb = r - a, err = (a - (r - bb)) + (b - bb);                           \
    if (m == 3 && r == 0 && err == 0 && (a != 0 || __builtin_signbit(a))) return -(T)0; \
    return __cu_dev_rnd##S(r, err, __builtin_isfinite(a) && __builtin_isfinite(b), m);  \
  }                                                                                     \
  static inline T __cu_dev_mul##S(T a, T b, int m) {                                    \
    T r = a * b;                                                                        \
    return __cu_dev_rnd##S(r, __builtin_fma##S(a, b, -r), __builtin_isfinite(a) && __builtin_isfinite(b), m); \
  }                                                                                     \
  static inline T __cu_dev_div##S(T a, T b, int m) {                                    \
    T q = a / b, rem = __builtin_fma##S(-q, b, a);                                      \
    return __cu_dev_rnd##S(q, b < 0 ? -rem : rem, __builtin_isfinite(a) && b != 0, m);  \
  }                                                                                     \
  static inline T __cu_dev_sqrt##S(T x, int m) {                                        \
    T r = __builtin_sqrt##S(x);                                                         \
    return __cu_dev_rnd##S(r, __builtin_fma##S(-r, r, x), 1, m);                        \
  }
CU_RND(float, f, __builtin_nextafterf, 3.40282347e+38f)
CU_RND(double, , __builtin_nextafter, 1.7976931348623157e+308)
#undef CU_RND
/* fma: the float one exactly, through double (a product of floats is exact
 * there); the double one by the sign of its residual, not always exact */
static inline float __cu_dev_fmaf(float a, float b, float c, int m) {
  double p = (double)a * b, s = p + c, bb = s - p, e = (p - (s - bb)) + (c - bb);
  float r = (float)s;
  return __cu_dev_rndf(r, (float)((s - (double)r) + e), __builtin_isfinite(s), m);
}
static inline double __cu_dev_fma(double a, double b, double c, int m) {
  double r = __builtin_fma(a, b, c), p = a * b, pe = __builtin_fma(a, b, -p);
  double s = p + c, bb = s - p, e = (p - (s - bb)) + (c - bb);
  return __cu_dev_rnd(r, ((s - r) + e) + pe, __builtin_isfinite(a) && __builtin_isfinite(b) && __builtin_isfinite(c), m);
}
/* cvt with a rounding: to float from double (or an integer, exact in a
 * double), and to integers (saturated, NaN to 0) */
static inline double cu_ptx_rnd(double x, int m) {
  return m == 0 ? rint(x) : m == 1 ? trunc(x) : m == 2 ? floor(x) : ceil(x);
}
#define CU_PTX_CVTF(R, M)                                                                            \
  static inline float cu_ptx_cvt_##R##_f32(double x) {                                             \
    float f = (float)x;                                                                             \
    if (M == 1 && fabs((double)f) > fabs(x)) f = nextafterf(f, 0.0f);                               \
    if (M == 2 && (double)f > x) f = nextafterf(f, -INFINITY);                                      \
    if (M == 3 && (double)f < x) f = nextafterf(f, INFINITY);                                       \
    return f;                                                                                       \
  }                                                                                                 \
  static inline double cu_ptx_cvt_##R##_f64(double x) { return x; }
CU_PTX_CVTF(rn, 0) CU_PTX_CVTF(rz, 1) CU_PTX_CVTF(rm, 2) CU_PTX_CVTF(rp, 3)
CU_PTX_CVTF(rni, 0) CU_PTX_CVTF(rzi, 1) CU_PTX_CVTF(rmi, 2) CU_PTX_CVTF(rpi, 3)
#undef CU_PTX_CVTF
#define CU_PTX_CVTI(R, M, S, T, LO, HI)                                                              \
  static inline T cu_ptx_cvt_##R##_##S(double x) {                                                 \
    if (x != x) return 0;                                                                           \
    double r = cu_ptx_rnd(x, M);                                                                    \
    return r <= (double)(LO) ? (LO) : r >= (double)(HI) ? (HI) : (T)r;                              \
  }
#define CU_PTX_CVTR(R, M)                                                                           \
  CU_PTX_CVTI(R, M, s32, int, (-2147483647 - 1), 2147483647)                                       \
  CU_PTX_CVTI(R, M, u32, unsigned, 0u, 4294967295u)                                                \
  CU_PTX_CVTI(R, M, s64, long long, (-9223372036854775807ll - 1), 9223372036854775807ll)          \
  CU_PTX_CVTI(R, M, u64, unsigned long long, 0ull, 18446744073709551615ull)
CU_PTX_CVTR(rn, 0) CU_PTX_CVTR(rz, 1) CU_PTX_CVTR(rm, 2) CU_PTX_CVTR(rp, 3)
CU_PTX_CVTR(rni, 0) CU_PTX_CVTR(rzi, 1) CU_PTX_CVTR(rmi, 2) CU_PTX_CVTR(rpi, 3)
#undef CU_PTX_CVTR
#undef CU_PTX_CVTI

/* cvt between a float and a half's bits (inline PTX's f16 registers):
 * to the nearest half, ties to even, NaN the canonical 0x7fff; back
 * exactly */
static inline unsigned short cu_ptx_f2h_rn(float f) {
  unsigned x, s, e, m;
  memcpy(&x, &f, sizeof x);
  s = x >> 16 & 0x8000u, e = x >> 23 & 0xffu, m = x & 0x7fffffu;
  if (e == 0xffu) return m ? 0x7fffu : (unsigned short)(s | 0x7c00u);
  int E = (int)e - 112;   /* the half's exponent field */
  if (E >= 31) return (unsigned short)(s | 0x7c00u);
  if (E <= 0) {   /* a subnormal half, or zero: (1.m) 2^(e - 127) in units of 2^-24 */
    if (E < -10) return (unsigned short)s;
    unsigned M = m | 0x800000u, sh = (unsigned)(14 - E), r = M >> sh, rem = M & ((1u << sh) - 1), hv = 1u << (sh - 1);
    return (unsigned short)(s | (r + (rem > hv || (rem == hv && (r & 1)))));
  }
  unsigned r = (unsigned)E << 10 | m >> 13, rem = m & 0x1fffu;
  return (unsigned short)(s | (r + (rem > 0x1000u || (rem == 0x1000u && (r & 1)))));   /* (a carry: the next exponent, or inf) */
}
static inline float cu_ptx_h2f(unsigned short h) {
  unsigned s = (unsigned)(h & 0x8000u) << 16, e = h >> 10 & 0x1fu, m = h & 0x3ffu, x;
  if (e == 0x1fu) x = s | 0x7f800000u | m << 13;
  else if (e) x = s | (e + 112) << 23 | m << 13;
  else if (!m) x = s;
  else {   /* a subnormal half: normalized */
    unsigned k = 0;
    while (!(m & 0x400u)) m <<= 1, k++;
    x = s | (113 - k) << 23 | (m & 0x3ffu) << 13;
  }
  float f;
  memcpy(&f, &x, sizeof f);
  return f;
}

/* The address spaces of a generic pointer (sm_20_intrinsics.h's
 * __isShared, __isLocal, __isGlobal, __cvta_*): shared memory is this
 * block's B->smem, found through the block this worker runs
 * (rt_fault_block: set for every block, launch.c and sm.c); a thread's
 * locals are on the stack it runs on or in the block's per-thread storage;
 * everything else is global (a __constant__ variable too: not told apart).
 * A shared address is its offset in the block's shared memory, as a GPU's
 * shared window starts at 0. */
extern _Thread_local const cu_block *rt_fault_block;
int cu_on_stack(const void *p);
static inline unsigned __cu_dev_isshared(const void *p) {
  const cu_block *B = rt_fault_block;
  const char *c = (const char *)p;
  return B && B->smem && c >= B->smem && c < B->smem + cu_dyn_smem_off(B->kernel) + B->dyn_smem;
}
static inline unsigned __cu_dev_islocal(const void *p) {
  const cu_block *B = rt_fault_block;
  const char *c = (const char *)p;
  if (B && B->lanes && c >= B->lanes && c < B->lanes + (size_t)B->kernel->lane_bytes * B->nwarps * CU_WARP) return 1;
  return !__cu_dev_isshared(p) && cu_on_stack(p);
}
static inline size_t __cu_dev_to_shared(const void *p) {
  const cu_block *B = rt_fault_block;
  return B ? (size_t)((const char *)p - B->smem) : (size_t)p;
}
static inline void *__cu_dev_from_shared(size_t a) {
  const cu_block *B = rt_fault_block;
  return B ? (void *)(B->smem + a) : (void *)a;
}

/* __syncwarp(mask): the lanes of a warp run every statement together, and
 * its writes are done before the next statement starts: nothing to wait for. */
static inline void cu_syncwarp(unsigned mask) { (void)mask; }

/* clock64(): a counter that increases (nanoseconds of the host clock) */
#include <time.h>
static inline long long cu_clock64(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* __threadfence*(): a full fence is strong enough for every scope. */
static inline void cu_fence(void) {
  if (cu_nred) cu_red_flush(0, 0);   /* (a fence orders the reductions before what follows) */
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* assert(expr) failed in a kernel: reported with the thread, the launch
 * fails with cudaErrorAssert (710) as on a GPU; once the failing threads of
 * a warp reported, cu_assert_stop ends the block (the GPU stops the whole
 * grid; the blocks of its first wave still report theirs, launch.c).
 * `blk` is &_B->blockIdx.x, the block's first field (the IR cannot name
 * the block itself). */
_Static_assert(offsetof(cu_block, blockIdx) == 0, "cu_assert_fail finds the block from its blockIdx");
static inline void cu_assert_fail(const unsigned *blk, unsigned tx, unsigned ty, unsigned tz, const char *expr,
                                  const char *file, int line) {
  const cu_block *B = (const cu_block *)(const void *)blk;
  char msg[512];
  snprintf(msg, sizeof msg, "Assertion `%s` failed.", expr);
  cu_fault_err(B, tx + B->blockDim.x * (ty + B->blockDim.y * tz), file, line, msg, 710);
}
static inline void cu_assert_stop(const unsigned *blk) { cu_block_stop((const cu_block *)(const void *)blk); }

/* ---- cucc --check: the fast path of an access check ----
 * An access that lies inside an allocation the same worker hit lately (and
 * no allocation was freed since; initcheck: reading written bytes, or
 * writing), inside its object, or inside the block's shared memory (with
 * racecheck: a read that changes nothing in the shadow) needs no more;
 * anything else goes to cu_ck_slow, which updates the shadows, reports,
 * and returns a harmless scratch address for a bad access. */
typedef struct cu_ckc {
  uintptr_t lo, hi;
  unsigned gen;
  unsigned char *init;        /* initcheck: a byte per byte, 1 once written */
} cu_ckc;
/* racecheck's shadow of a shared memory buffer: per 4-byte word the last
 * writer and up to two readers, with the barrier interval (epoch) of each */
typedef struct cu_ckacc { uint32_t tid, sw; const cu_site *s; } cu_ckacc;
typedef struct cu_ckword {
  uint64_t wep, rep;          /* epochs of the last write, of the readers */
  cu_ckacc w, r1, r2;         /* r2: a second reader, other than r1 */
} cu_ckword;
/* a warp's access of n lanes from offset off (lane l at off + l * step,
 * thread tid0 + l * tstep), in m rows mstep bytes apart (a loop's
 * iterations), not yet recorded in the words */
typedef struct cu_ckrange {
  uint32_t off, n, step, tid0, tstep, m;
  int32_t mstep;
  const cu_site *s;
} cu_ckrange;
enum { CU_CK_NLOG = 4096 };
typedef struct cu_ckshadow {
  char *smem;                 /* the buffer it shadows (a worker's or an SM slot's) */
  size_t nw;
  cu_ckword *w;
  uint64_t epoch;             /* the running block's barrier interval */
  /* A warp's range access (cu_ck_rng) that cannot be a hazard now is only
   * logged, one entry and not a word per lane, and written into the words
   * only when something needs them (cu_ck_flush: a lane-by-lane check, a
   * __syncwarp()); at the barrier the log is dropped. Whether it can be a
   * hazard is told by `own`: per word, the one thread that accessed it in
   * this interval, or "many readers", one 32-bit entry, tested and set a
   * range at a time (vector code). `own` answers only while every access
   * of the interval went through it: once the words are used (pep), the
   * interval is checked word by word. */
  uint64_t logep;             /* the interval the log belongs to */
  uint64_t pep;               /* the interval whose accesses are in the words */
  uint64_t wep;               /* the interval of the latest logged write */
  uint32_t nlog;
  uint32_t nown;              /* log entries in `own` (reads before the
                                 interval's first write need not be: reads
                                 alone are never a hazard) */
  cu_ckrange *log;
  uint32_t *own;              /* CU_OWN_*: epoch, kinds, owner thread */
  uint32_t sw[32];            /* __syncwarp() count of each warp */
  struct cu_ckshadow *next;
} cu_ckshadow;
/* own[w]: the low 19 bits of the epoch, M (many readers), W, R, the thread
 * (10 bits). An entry left from an older epoch with the same low bits can
 * only make a range look like a possible hazard, never hide one: then the
 * words decide. */
enum { CU_OWN_TID = 1023, CU_OWN_R = 1 << 10, CU_OWN_W = 1 << 11, CU_OWN_M = 1 << 12, CU_OWN_EP = 13 };
#define CU_CK_NOBODY 0xffffffffu
/* An access's bytes of its 4-byte word ride in the top 4 bits of its
 * cu_ckacc.sw (a warp's __syncwarp count stays far below 2^28): threads
 * writing neighbouring 1- or 2-byte elements (`__shared__ short c[64];
 * c[t] = ...`) share a word, not a byte, and are no hazard. (A word keeps
 * one writer: a third thread's access to the bytes of a writer before the
 * last can go unseen.) */
#define CU_CK_SWMASK 0x0fffffffu
static inline uint32_t cu_ck_bytes(uintptr_t off, unsigned size) {
  return size >= 4 ? 0xfu : ((1u << size) - 1u) << (off & 3u);
}
/* the allocations this worker hit last (a kernel reads a few arrays) */
enum { CU_CK_NLAST = 4 };
extern _Thread_local cu_ckc cu_ck_last[CU_CK_NLAST];
extern _Thread_local cu_ckshadow *cu_ck_sh;
void cu_ck_flush(cu_ckshadow *sh);
extern unsigned cu_ck_gen, cu_ck_what;

/* racecheck without the slow path: a read of a shared word no other
 * thread wrote in this interval is recorded as the slow path would (the
 * first two readers; a third changes nothing); a write (or a
 * read-modify-write) of a word no other thread read or wrote in this
 * interval only records this thread. Anything else may be a hazard (or a
 * warp's own ordered accesses): the slow path decides. */
static inline __attribute__((always_inline)) int cu_ck_race_fast(const cu_block *B, unsigned tid, uintptr_t off, const cu_site *s) {
  cu_ckshadow *sh = cu_ck_sh;
  if (!sh || sh->smem != B->smem || (off & 3u) + s->size > 4u || off / 4 >= sh->nw) return 0;
  cu_ckword *w = &sh->w[off / 4];
  const uint64_t E = sh->epoch;
  if (sh->nlog && sh->logep == E) return 0;   /* the logged ranges first, in order: slow path */
  if (w->wep == E && w->w.tid != tid) return 0;
  const uint32_t mb = cu_ck_bytes(off, s->size) << 28;
  const cu_ckacc me = {tid, sh->sw[tid / 32 % 32] | mb, s};
  sh->pep = E;   /* `own` no longer has every access of the interval */
  if (s->kind == CU_RD) {
    if (w->rep != E) {
      w->rep = E;
      w->r1 = me;
      w->r2.tid = CU_CK_NOBODY;
    } else if (w->r1.tid != tid && w->r2.tid == CU_CK_NOBODY) {
      w->r2 = me;
    } else if (w->r1.tid == tid) {
      w->r1.sw |= mb;
    }
    return 1;
  }
  if (w->rep == E && (w->r1.tid != tid || w->r2.tid != CU_CK_NOBODY)) return 0;
  if (s->kind & CU_RD) {   /* read-modify-write (s[t] += ...) */
    w->rep = E;
    w->r1 = me;
    w->r2.tid = CU_CK_NOBODY;
  }
  cu_ckacc wm = me;
  if (w->wep == E) wm.sw |= w->w.sw & ~CU_CK_SWMASK;   /* (its own earlier bytes: w->w.tid == tid) */
  w->wep = E;
  w->w = wm;
  return 1;
}

static inline __attribute__((always_inline)) void *cu_ck(const cu_block *B, unsigned tid, void *p, const cu_site *s, const void *obj, size_t objn) {
  uintptr_t a = (uintptr_t)p;
  if (!(a & (s->align - 1u))) {
    if (s->space == CU_SP_OBJ) {
      if (a >= (uintptr_t)obj && a + s->size <= (uintptr_t)obj + objn) return p;
    } else if (s->space == CU_SP_SHARED) {
      uintptr_t lo = (uintptr_t)B->smem;
      if (a >= lo && a + s->size <= lo + cu_dyn_smem_off(B->kernel) + B->dyn_smem &&
          (!(cu_ck_what & CU_CK_RACE) || cu_ck_race_fast(B, tid, a - lo, s)))
        return p;
    } else {
      for (int k = 0; k < CU_CK_NLAST; k++) {
        const cu_ckc *c = &cu_ck_last[k];
        if (a >= c->lo && a + s->size <= c->hi && c->gen == __atomic_load_n(&cu_ck_gen, __ATOMIC_RELAXED)) {
          if (!(cu_ck_what & CU_CK_INIT) || !c->init) return p;
          unsigned char *ip = c->init + (a - c->lo);
          if (s->kind & CU_RD)
            for (unsigned j = 0; j < s->size; j++)
              if (!ip[j]) return cu_ck_slow(B, tid, p, s, obj, objn);
          if (s->kind & CU_WR) memset(ip, 1, s->size);
          return p;
        }
      }
    }
  }
  return cu_ck_slow(B, tid, p, s, obj, objn);
}

/* cucc --check, a warp's affine access as one test: n lanes from thread
 * tid0 on, lane l at p + l * step (step: the element's size; 0: every lane
 * the same element, a broadcast). Returns 1 when every lane's access is
 * fine and recorded as cu_ck would have recorded it, so the caller runs
 * its unchecked lane loop; 0 when any lane needs more than the fast path
 * (a bad access to report, an allocation not seen lately, a possible
 * hazard): the caller then checks lane by lane, which reports. Recording
 * twice is harmless: a thread that repeats its own access in the same
 * barrier interval changes no shadow.
 * The lanes may be every tstep-th (runs of `t % (2 * s) == 0`; step is
 * then tstep elements). cu_ck_rng2 tests the same access in all m iterations of a loop at once,
 * row i at p + i * mstep: reads, and writes other than to shared memory
 * with racecheck, whose order with the loop's other accesses matters. */
/* racecheck, a range in an interval whose accesses are all in `own`: can
 * it be a hazard? If not, `own` records it and the caller logs it. The
 * common case, a warp's 4-byte words one per lane, is one vector loop. */
static inline __attribute__((always_inline)) int cu_ck_own1(uint32_t *o, uint32_t e, uint32_t k, uint32_t t) {
  uint32_t x = *o;
  int cur = x >> CU_OWN_EP == e;
  int same = cur && !(x & CU_OWN_M) && (x & CU_OWN_TID) == t;
  int rd = cur && k == CU_OWN_R && !(x & CU_OWN_W);   /* another reader */
  *o = !cur ? e << CU_OWN_EP | k | t : same ? x | k : x | CU_OWN_M;
  return !cur || same || rd;
}

static inline __attribute__((always_inline)) int cu_ck_own(cu_ckshadow *sh, unsigned tid0, unsigned tstep, uintptr_t off,
                                                           long n, size_t step, long long m, ptrdiff_t mstep,
                                                           const cu_site *s) {
  if (((off | step | (uintptr_t)mstep) & 3u) || (s->size != 4 && s->size != 8)) return 0;
  const uint32_t e = (uint32_t)(sh->epoch & ((1u << (32 - CU_OWN_EP)) - 1)), nw = s->size / 4;
  const uint32_t k = (s->kind & CU_RD ? CU_OWN_R : 0) | (s->kind & CU_WR ? CU_OWN_W : 0);
  if ((off + (uintptr_t)(n - 1) * step) / 4 + nw > sh->nw) return 0;
  uint32_t *o = sh->own + off / 4;
  int ok = 1;
  for (long long i = 0; i < m; i++, o += mstep / 4) {
    if (step == 0 && nw == 1) {   /* one word: after two lanes nothing changes */
      for (long l = 0; l < n && l < 2; l++) ok &= cu_ck_own1(o, e, k, tid0 + (uint32_t)l * tstep);
    } else if (step == 4 && tstep == 1 && nw == 1) {
      for (long l = 0; l < n; l++) ok &= cu_ck_own1(o + l, e, k, tid0 + (uint32_t)l);
    } else {
      for (long l = 0; l < n; l++)
        for (uint32_t j = 0; j < nw; j++)
          ok &= cu_ck_own1(o + l * (long)(step / 4) + j, e, k, tid0 + (uint32_t)l * tstep);
    }
  }
  return ok;
}

/* The logged reads of this interval not yet in `own` (it has no write
 * yet) into it: reads are never a hazard among themselves. 0 when `own`
 * cannot hold one (then the words decide). (Out of line, once per
 * interval, but here: compiled with the kernel's flags.) */
static __attribute__((noinline, unused)) int cu_ck_own_log(cu_ckshadow *sh) {
  for (; sh->nown < sh->nlog; sh->nown++) {
    const cu_ckrange *r = &sh->log[sh->nown];
    if (!cu_ck_own(sh, r->tid0, r->tstep, r->off, r->n, r->step, r->m, r->mstep, r->s)) return 0;   /* (a short, a byte) */
  }
  return 1;
}

/* initcheck: are all n shadow bytes from p set? (they are 0 or 1; a
 * short range is ANDed a word at a time, cheaper than a call to memchr) */
static inline int cu_ck_set(const unsigned char *p, size_t n) {
  if (n > 256) return !memchr(p, 0, n);
  uint64_t all = ~0ull, x;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&x, p + i, 8);
    all &= x;
  }
  for (; i < n; i++) all &= 0x0101010101010100ull | p[i];
  return all == 0x0101010101010101ull;
}

static inline __attribute__((always_inline)) int cu_ck_rng2(const cu_block *B, unsigned tid0, unsigned tstep,
                                                            const void *p, long n, size_t step, long long m,
                                                            ptrdiff_t mstep, const cu_site *s, const void *obj,
                                                            size_t objn) {
  if (n <= 0 || m <= 0) return 1;
  if (mstep == 0) m = 1;   /* the same lanes again: nothing new to test or record */
  if (m > (1 << 24) || mstep > (1 << 24) || mstep < -(1 << 24)) return 0;
  uintptr_t a = (uintptr_t)p, len = (uintptr_t)(n - 1) * step + s->size;
  uintptr_t span = (uintptr_t)((m - 1) * (mstep < 0 ? -mstep : mstep));
  uintptr_t lo = mstep < 0 ? a - span : a, hi = lo + span + len;
  if ((a | (uintptr_t)mstep) & (s->align - 1u)) return 0;
  if (s->space == CU_SP_OBJ) return lo >= (uintptr_t)obj && hi <= (uintptr_t)obj + objn;
  if (s->space == CU_SP_SHARED) {
    uintptr_t sm = (uintptr_t)B->smem;
    if (lo < sm || hi > sm + cu_dyn_smem_off(B->kernel) + B->dyn_smem) return 0;
    if (!(cu_ck_what & CU_CK_RACE)) return 1;
    cu_ckshadow *sh = cu_ck_sh;
    if (sh && sh->smem == B->smem) {
      const uint64_t E = sh->epoch;
      if (sh->logep != E) {   /* a new interval: the old log is void */
        sh->logep = E;
        sh->nlog = sh->nown = 0;
      }
      if (sh->pep != E && sh->nlog < CU_CK_NLOG) {
        int rd = s->kind == CU_RD, ok = 1;
        if (!rd && sh->wep != E) {   /* the first write: the reads before it into `own` */
          ok = cu_ck_own_log(sh);
          sh->wep = E;
        }
        if (ok && ((rd && sh->wep != E) || cu_ck_own(sh, tid0, tstep, a - sm, n, step, m, mstep, s))) {
          sh->nown += sh->wep == E;
          sh->log[sh->nlog++] =
              (cu_ckrange){(uint32_t)(a - sm), (uint32_t)n, (uint32_t)step, tid0, tstep, (uint32_t)m, (int32_t)mstep, s};
          return 1;
        }
      }
      if (sh->pep != E) cu_ck_flush(sh);
    }
    for (long long i = 0; i < m; i++)
      for (long l = 0; l < n; l++)
        if (!cu_ck_race_fast(B, tid0 + (unsigned)l * tstep, a - sm + (uintptr_t)(i * mstep) + (uintptr_t)l * step, s))
          return 0;
    return 1;
  }
  for (int k = 0; k < CU_CK_NLAST; k++) {
    const cu_ckc *c = &cu_ck_last[k];
    if (lo >= c->lo && hi <= c->hi && c->gen == __atomic_load_n(&cu_ck_gen, __ATOMIC_RELAXED)) {
      if (!(cu_ck_what & CU_CK_INIT) || !c->init) return 1;
      /* the bytes the lanes access: a row is [a, a + len) when its lanes
       * leave no gaps; rows that touch or overlap cover [lo, hi); else a
       * row, or a lane, at a time (a write must not mark the gaps) */
      int dense = n == 1 || step == 0 || step == s->size;
      long long rows = dense && (uintptr_t)(mstep < 0 ? -mstep : mstep) <= len ? 1 : m;
      long lanes = dense ? 1 : n;
      uintptr_t blen = rows == 1 && dense ? hi - lo : dense ? len : s->size, r0 = rows == 1 && dense ? lo : a;
      for (long long i = 0; i < rows; i++)
        for (long l = 0; l < lanes; l++) {
          unsigned char *ip = c->init + (r0 + (uintptr_t)(i * mstep) + (uintptr_t)l * step - c->lo);
          if ((s->kind & CU_RD) && !cu_ck_set(ip, blen)) return 0;
          if (s->kind & CU_WR) memset(ip, 1, blen);
        }
      return 1;
    }
  }
  return 0;
}

static inline __attribute__((always_inline)) int cu_ck_rng(const cu_block *B, unsigned tid0, unsigned tstep,
                                                           const void *p, long n, size_t step, const cu_site *s,
                                                           const void *obj, size_t objn) {
  return cu_ck_rng2(B, tid0, tstep, p, n, step, 1, 0, s, obj, objn);
}

/* Linear thread id in a device function (checked build: it gets the
 * thread's indices as hidden parameters). */
static inline unsigned cu_tid3(const cu_block *B, unsigned x, unsigned y, unsigned z) {
  return x + B->blockDim.x * (y + B->blockDim.y * z);
}

/* CUCC_PROFILE: how many lanes of a mask are set */
static inline unsigned cu_count(const unsigned char *m) {
  unsigned r = 0;
  for (int l = 0; l < 32; l++) r += m[l] != 0;
  return r;
}

/* A block-level if whose threads disagree parks the threads not taking a
 * side with a bit of their exit flags: flip it for the other side, or clear
 * it after the if */
static inline void cu_park_flip(unsigned char *ex, unsigned n, unsigned bit, int flip) {
  for (unsigned i = 0; i < n; i++) ex[i] = flip ? ex[i] ^ bit : ex[i] & ~bit;
}

/* Block-level control flow around a __syncthreads() had a condition that
 * differed between threads: the barrier at bfile:bline is reached by only
 * `reached` of the `live` threads. Reported as a kernel fault: the block
 * stops and the launch fails. */
static inline void cu_barrier_diverged(const cu_block *B, unsigned tid, const char *cfile, int cline,
                                       const char *bfile, int bline, unsigned reached,
                                       unsigned live, const char *what) {
  char msg[512];
  if (!strcmp(what, "jump"))   /* a break or continue out of a loop with barriers */
    snprintf(msg, sizeof msg,
             "divergent __syncthreads(): a break or continue out of a loop containing __syncthreads() "
             "taken by %u of %u threads (its condition at %s:%d differs between threads of the block)",
             reached, live, cfile, cline);
  else
    snprintf(msg, sizeof msg,
             "divergent __syncthreads(): reached by %u of %u threads (the %s condition at %s:%d "
             "differs between threads of the block)",
             reached, live, what, cfile, cline);
  cu_fault(B, tid, bfile, bline, msg);
}

/* <cuda/pipeline>'s and cooperative groups' memcpy_async: a thread's
 * share of a copy of n bytes, its words (bytes where an end or n is not
 * word-aligned) rank, rank + step, ...; a thread's own copy (step 1) is a
 * memcpy */
static inline __attribute__((always_inline)) void __cu_dev_copy(void *dst, const void *src, size_t n,
                                                                size_t rank, size_t step) {
  if (step == 1 && rank == 0) {
    memcpy(dst, src, n);
  } else if (((uintptr_t)dst | (uintptr_t)src | n) & 3) {
    for (size_t i = rank; i < n; i += step) ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
  } else {
    for (size_t i = rank; i < n / 4; i += step) ((uint32_t *)dst)[i] = ((const uint32_t *)src)[i];
  }
}

#include <cucc_wmma.h>

/* device printf: into the device's buffer, written after the kernel
 * (runtime/src/printf.c); last, after every header that declares printf */
int cu_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define printf(...) cu_printf(__VA_ARGS__)
#endif
