/* mma.h: CUDA's warp matrix functions, nvcuda::wmma (our own header).
 *
 * How a tile is spread over the warp. On a GPU each lane holds some
 * elements of a fragment, in an order CUDA leaves unspecified, and
 * mma_sync is one instruction of the warp. Here a lane holds exactly what
 * it needs to compute its own elements of D = A·B + C with no other
 * lane's help:
 *  - accumulator (M×N): lane l has row r = l / (32/M) and the M·N/32
 *    columns from c0 = (l % (32/M))·M·N/32: x[j] = C[r][c0 + j]. Every
 *    element belongs to exactly one lane, as on a GPU, so code that sums
 *    its lane's x[i] and then reduces over the warp gets the tile's sum;
 *  - matrix_a (M×K): lane l has row r of A: x[k] = A[r][k] (num_elements
 *    K; each row is held by 32/M lanes);
 *  - matrix_b (K×N): lane l has the same columns of B as of C, in the
 *    order memory has them: x[k·M·N/32 + j] = B[k][c0 + j] (row_major) or
 *    x[j·K + k] (col_major) (K·M·N/32 elements).
 * So load_matrix_sync, store_matrix_sync and mma_sync are per-lane code
 * (the loops of cucc_wmma.h, called by name from each lane: no lane reads
 * another's registers, and a warp does the tile's M·N·K multiply-adds
 * once, not once per lane), and elementwise loops over x[i] act on every
 * element once. The cost is in the operands: each element of B is loaded
 * and converted by every lane whose row segment covers its column (16 at
 * 16x16x16), each row of A by 32/M lanes.
 * (Every lane holding the whole tile would be simpler, but would do the
 * multiply-adds 32 times over, and a lane's sum of its x[i] would be the
 * tile's.) mma_sync with a fragment it also writes (mma_sync(c, a, b, c))
 * is fine: a lane reads all of C before writing D.
 *
 * Arithmetic: products of half, bf16 and tf32 operands are exact in
 * float and summed in float, pairwise (a tree over k), then added to C
 * (tf32 operands are read as a tensor core reads them: the 19 upper bits;
 * __float_to_tf32 rounds to nearest, ties away); double in double in k
 * order from C; 8-bit integers in integers (wrapping, or clamped with
 * satf); a half accumulator is rounded to half after each mma_sync.
 *
 * Shapes and types are the programming guide's: half (accumulator float
 * or half) and bf16 (float), signed and unsigned char (int) at 16x16x16,
 * 32x8x16 and 8x32x16; tf32 (float) at 16x16x8; double at 8x8x4. The
 * experimental sub-byte types (u4, s4, b1) are refused at compile time. */
#ifndef CUCC_MMA_H
#define CUCC_MMA_H
#include "cuda_runtime.h"
#include "cuda_fp16.h"
#include "cuda_bf16.h"

#ifdef __cplusplus
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32;
}
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
}  // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}  // namespace experimental

namespace __cu {
template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };
template <class T> struct dep_false { static constexpr bool value = false; };

/* the type a fragment's elements are stored as */
template <class T> struct storage { typedef T type; };
template <> struct storage<precision::tf32> { typedef float type; };

/* the shapes each operand type has (CUDA's table) */
template <int M, int N, int K> struct k16 { static constexpr bool value = K == 16 && ((M == 16 && N == 16) || (M == 32 && N == 8) || (M == 8 && N == 32)); };
template <class T, int M, int N, int K> struct ab_ok { static constexpr bool value = false; };
template <int M, int N, int K> struct ab_ok<__half, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct ab_ok<__nv_bfloat16, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct ab_ok<signed char, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct ab_ok<unsigned char, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct ab_ok<precision::tf32, M, N, K> { static constexpr bool value = M == 16 && N == 16 && K == 8; };
template <int M, int N, int K> struct ab_ok<double, M, N, K> { static constexpr bool value = M == 8 && N == 8 && K == 4; };
template <class T, int M, int N, int K> struct acc_ok { static constexpr bool value = false; };
template <int M, int N, int K> struct acc_ok<float, M, N, K> { static constexpr bool value = k16<M, N, K>::value || (M == 16 && N == 16 && K == 8); };
template <int M, int N, int K> struct acc_ok<__half, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct acc_ok<int, M, N, K> : k16<M, N, K> {};
template <int M, int N, int K> struct acc_ok<double, M, N, K> { static constexpr bool value = M == 8 && N == 8 && K == 4; };
template <class T> struct sub_byte { static constexpr bool value = false; };
template <> struct sub_byte<experimental::precision::u4> { static constexpr bool value = true; };
template <> struct sub_byte<experimental::precision::s4> { static constexpr bool value = true; };
template <> struct sub_byte<experimental::precision::b1> { static constexpr bool value = true; };

/* how many elements a lane holds (see the top of this file) */
template <class Use, int M, int N, int K> struct count;
template <int M, int N, int K> struct count<matrix_a, M, N, K> { static constexpr int n = K; };
template <int M, int N, int K> struct count<matrix_b, M, N, K> { static constexpr int n = K * (M * N / 32); };
template <int M, int N, int K> struct count<accumulator, M, N, K> { static constexpr int n = M * N / 32; };

template <class Use, int M, int N, int K, class T, class Layout> struct check {
  static_assert(!sub_byte<T>::value,
                "cucc: the experimental sub-byte wmma types (u4, s4, b1) are not supported");
  static_assert(sub_byte<T>::value || !same<Use, accumulator>::value || acc_ok<T, M, N, K>::value,
                "cucc: wmma has no accumulator fragment of this shape and type (CUDA's are float at "
                "16x16x16, 32x8x16, 8x32x16 and 16x16x8, half and int at the first three, double at 8x8x4)");
  static_assert(sub_byte<T>::value || same<Use, accumulator>::value || ab_ok<T, M, N, K>::value,
                "cucc: wmma has no matrix_a/matrix_b fragment of this shape and type (CUDA's are half, "
                "__nv_bfloat16, signed and unsigned char at 16x16x16, 32x8x16 and 8x32x16, "
                "precision::tf32 at 16x16x8, double at 8x8x4)");
  static_assert(same<Use, accumulator>::value ? same<Layout, void>::value
                                              : same<Layout, row_major>::value || same<Layout, col_major>::value,
                "cucc: a wmma matrix_a or matrix_b fragment takes a layout (wmma::row_major or wmma::col_major); "
                "an accumulator takes none (its layout is given to load_matrix_sync and store_matrix_sync)");
  static constexpr int n = count<Use, M, N, K>::n;
};
}  // namespace __cu

template <class Use, int m, int n, int k, class T, class Layout = void> class fragment {
public:
  typedef T element_type;
  typedef typename __cu::storage<T>::type storage_element_type;
  static constexpr int num_elements = __cu::check<Use, m, n, k, T, Layout>::n;
  storage_element_type x[num_elements];
};

#if defined(__CUCC_PARSE__)
/* cucc_wmma.h: a lane's copies and arithmetic (see there) */
extern "C" {
__device__ void __cu_dev_wmma_ld1(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_ld2(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_ld4(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_ld8(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_st2(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_st4(void *, const void *, long long, long long, int, int);
__device__ void __cu_dev_wmma_st8(void *, const void *, long long, long long, int, int);
#define CU_WMMA_DECL(NAME) __device__ void __cu_dev_wmma_mma_##NAME(void *, const void *, const void *, const void *, int, int, int, int);
CU_WMMA_DECL(h_ff) CU_WMMA_DECL(h_fh) CU_WMMA_DECL(h_hf) CU_WMMA_DECL(h_hh) CU_WMMA_DECL(bf_ff)
CU_WMMA_DECL(tf_ff) CU_WMMA_DECL(d_dd) CU_WMMA_DECL(s8_ii) CU_WMMA_DECL(u8_ii)
#undef CU_WMMA_DECL
}

namespace __cu {
static __device__ inline unsigned lane() {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;
}
/* dst[i * nj + j] = src[i * si + j * sj] in elements of T, and the
 * reverse: cucc_wmma.h's copies; in a --check build loops that cucc
 * lowers, so that the program's memory is checked as for its own code */
#if !defined(__CUCC_CHECK__)
template <class T> static __device__ inline void ld(T *dst, const T *src, long long si, long long sj, int ni, int nj) {
  if (sizeof(T) == 1) __cu_dev_wmma_ld1(dst, src, si, sj, ni, nj);
  else if (sizeof(T) == 2) __cu_dev_wmma_ld2(dst, src, si, sj, ni, nj);
  else if (sizeof(T) == 4) __cu_dev_wmma_ld4(dst, src, si, sj, ni, nj);
  else __cu_dev_wmma_ld8(dst, src, si, sj, ni, nj);
}
template <class T> static __device__ inline void st(T *dst, const T *src, long long si, long long sj, int ni, int nj) {
  if (sizeof(T) == 2) __cu_dev_wmma_st2(dst, src, si, sj, ni, nj);
  else if (sizeof(T) == 4) __cu_dev_wmma_st4(dst, src, si, sj, ni, nj);
  else __cu_dev_wmma_st8(dst, src, si, sj, ni, nj);
}
#else
template <class T> static __device__ inline void ld(T *dst, const T *src, long long si, long long sj, int ni, int nj) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) dst[i * nj + j] = src[i * si + j * sj];
}
template <class T> static __device__ inline void st(T *dst, const T *src, long long si, long long sj, int ni, int nj) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) dst[i * si + j * sj] = src[i * nj + j];
}
#endif
template <class L> struct is_row { static constexpr bool value = same<L, row_major>::value; };

/* mma of the operand type TA into TD from TC: one function per combination */
template <class TA, class TD, class TC> struct mma {
  static_assert(dep_false<TA>::value, "cucc: wmma::mma_sync has no such combination of operand and accumulator types");
  static __device__ void run(void *, const void *, const void *, const void *, int, int, int, int) {}
};
#define CU_WMMA_MMA(TA, TD, TC, NAME)                                                                      \
  template <> struct mma<TA, TD, TC> {                                                                     \
    static __device__ void run(void *d, const void *a, const void *b, const void *c, int k, int n, int bc,  \
                               int s) {                                                                    \
      __cu_dev_wmma_mma_##NAME(d, a, b, c, k, n, bc, s);                                                   \
    }                                                                                                      \
  };
CU_WMMA_MMA(__half, float, float, h_ff)
CU_WMMA_MMA(__half, float, __half, h_fh)
CU_WMMA_MMA(__half, __half, float, h_hf)
CU_WMMA_MMA(__half, __half, __half, h_hh)
CU_WMMA_MMA(__nv_bfloat16, float, float, bf_ff)
CU_WMMA_MMA(precision::tf32, float, float, tf_ff)
CU_WMMA_MMA(double, double, double, d_dd)
CU_WMMA_MMA(signed char, int, int, s8_ii)
CU_WMMA_MMA(unsigned char, int, int, u8_ii)
#undef CU_WMMA_MMA
}  // namespace __cu

template <class Use, int m, int n, int k, class T, class L>
__device__ inline void fill_fragment(fragment<Use, m, n, k, T, L> &f,
                                     const typename fragment<Use, m, n, k, T, L>::storage_element_type &v) {
  for (int i = 0; i < fragment<Use, m, n, k, T, L>::num_elements; i++) f.x[i] = v;
}

/* A: the lane's row */
template <int m, int n, int k, class T, class L>
__device__ inline void load_matrix_sync(fragment<matrix_a, m, n, k, T, L> &a,
                                        const typename fragment<matrix_a, m, n, k, T, L>::storage_element_type *p,
                                        unsigned ldm) {
  unsigned r = __cu::lane() / (32 / m);
  if (__cu::is_row<L>::value) __cu::ld(a.x, p + (unsigned long long)r * ldm, 0, 1, 1, k);
  else __cu::ld(a.x, p + r, 0, ldm, 1, k);
}
/* B: the lane's columns, in the order memory has them (k-major from a
 * row-major B, column by column from a column-major one: contiguous runs
 * either way) */
template <int m, int n, int k, class T, class L>
__device__ inline void load_matrix_sync(fragment<matrix_b, m, n, k, T, L> &b,
                                        const typename fragment<matrix_b, m, n, k, T, L>::storage_element_type *p,
                                        unsigned ldm) {
  unsigned c0 = __cu::lane() % (32 / m) * (m * n / 32);
  if (__cu::is_row<L>::value) __cu::ld(b.x, p + c0, ldm, 1, k, m * n / 32);
  else __cu::ld(b.x, p + (unsigned long long)c0 * ldm, ldm, 1, m * n / 32, k);
}
/* C: the lane's row segment */
template <int m, int n, int k, class T>
__device__ inline void load_matrix_sync(fragment<accumulator, m, n, k, T, void> &c, const T *p, unsigned ldm,
                                        layout_t layout) {
  unsigned r = __cu::lane() / (32 / m), c0 = __cu::lane() % (32 / m) * (m * n / 32);
  if (layout == mem_row_major) __cu::ld(c.x, p + (unsigned long long)r * ldm + c0, 0, 1, 1, m * n / 32);
  else __cu::ld(c.x, p + (unsigned long long)c0 * ldm + r, 0, ldm, 1, m * n / 32);
}
template <int m, int n, int k, class T>
__device__ inline void store_matrix_sync(T *p, fragment<accumulator, m, n, k, T, void> &c, unsigned ldm,
                                         layout_t layout) {
  unsigned r = __cu::lane() / (32 / m), c0 = __cu::lane() % (32 / m) * (m * n / 32);
  if (layout == mem_row_major) __cu::st(p + (unsigned long long)r * ldm + c0, c.x, 0, 1, 1, m * n / 32);
  else __cu::st(p + (unsigned long long)c0 * ldm + r, c.x, 0, ldm, 1, m * n / 32);
}
/* (a const fragment: a copy, then the above; cucc passes a const
 * reference by value, so the overloads above take the common case, a
 * fragment variable, by address, without copying it) */
template <int m, int n, int k, class T>
__device__ inline void store_matrix_sync(T *p, const fragment<accumulator, m, n, k, T, void> &c, unsigned ldm,
                                         layout_t layout) {
  fragment<accumulator, m, n, k, T, void> t = c;
  store_matrix_sync(p, t, ldm, layout);
}

template <int m, int n, int k, class TA, class LA, class LB, class TD, class TC>
__device__ inline void mma_sync(fragment<accumulator, m, n, k, TD, void> &d, fragment<matrix_a, m, n, k, TA, LA> &a,
                                fragment<matrix_b, m, n, k, TA, LB> &b, fragment<accumulator, m, n, k, TC, void> &c,
                                bool satf = false) {
  __cu::mma<TA, TD, TC>::run(d.x, a.x, b.x, c.x, k, m * n / 32, !__cu::is_row<LB>::value, satf);
}
template <int m, int n, int k, class TA, class LA, class LB, class TD, class TC>
__device__ inline void mma_sync(fragment<accumulator, m, n, k, TD, void> &d,
                                const fragment<matrix_a, m, n, k, TA, LA> &a,
                                const fragment<matrix_b, m, n, k, TA, LB> &b,
                                const fragment<accumulator, m, n, k, TC, void> &c, bool satf = false) {
  __cu::mma<TA, TD, TC>::run(d.x, a.x, b.x, c.x, k, m * n / 32, !__cu::is_row<LB>::value, satf);
}

/* cvt.rna.tf32.f32: to the nearest tf32 value (10 mantissa bits), ties
 * away from zero, as a float */
__device__ inline float __float_to_tf32(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7f800000u) != 0x7f800000u) u += 0x1000u;
  else if (u & 0x7fffffu) u |= 0x400000u;   /* NaN stays NaN */
  return __uint_as_float(u & 0xffffe000u);
}
#endif
}  // namespace wmma
}  // namespace nvcuda
#endif
#endif
