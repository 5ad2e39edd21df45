/* cucc_atomic.h: libcu++'s atomics for cucc (our own; <cuda/atomic>,
 * <cuda/std/atomic> and <cuda/barrier> include it): cuda::thread_scope,
 * cuda::std::memory_order and the operations every atomic type is made
 * of, for device code and host code alike.
 *
 * libcu++'s own atomics (Debian's libcu++ 1.8) are built on inline PTX
 * behind base classes in device code, which cucc's frontend does not
 * compile; these are the same operations on what cucc has: in device code
 * CUDA's atomic functions (atomicAdd, atomicCAS ...; one lane at a time,
 * atomic between the workers), in host code the C++ compiler's __atomic
 * builtins. Each operation is a __host__ and a __device__ overload (clang,
 * in cucc's parse, picks the caller's side; the host compiler sees the host
 * one only), so an atomic works on both sides, on the same memory.
 *
 * Device side: every scope acts as the system's (a block's threads, the
 * device's blocks and the host all share the CPU's memory); orders are
 * kept with fences around the relaxed operation (a release before it, an
 * acquire after it, seq_cst both). Objects of 4 and 8 bytes use the
 * atomic functions directly where CUDA has them for the type (and CAS
 * loops on their bits otherwise: float min, double exchange, pointers ...);
 * of 1 and 2 bytes, CAS on the aligned 4-byte word that holds them. */
#ifndef CUCC_ATOMIC_H
#define CUCC_ATOMIC_H
#include <cuda_runtime.h>
#include <stddef.h>

#ifdef __CUCC_PARSE__
/* a member (or function) defined twice: for host and device callers */
#define CUCC_HD2(...) __host__ __VA_ARGS__ __device__ __VA_ARGS__
#else
#define CUCC_HD2(...) __VA_ARGS__
#endif

namespace cuda {
namespace std {
/* (values of the __ATOMIC_* orders of the builtins) */
enum memory_order {
  memory_order_relaxed,
  memory_order_consume,
  memory_order_acquire,
  memory_order_release,
  memory_order_acq_rel,
  memory_order_seq_cst
};
}  // namespace std
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
using memory_order = std::memory_order;
constexpr memory_order memory_order_relaxed = std::memory_order_relaxed;
constexpr memory_order memory_order_consume = std::memory_order_consume;
constexpr memory_order memory_order_acquire = std::memory_order_acquire;
constexpr memory_order memory_order_release = std::memory_order_release;
constexpr memory_order memory_order_acq_rel = std::memory_order_acq_rel;
constexpr memory_order memory_order_seq_cst = std::memory_order_seq_cst;

namespace cucc_ {
/* the order a failed compare-exchange loads with */
__host__ __device__ constexpr memory_order fail_order(memory_order o) {
  return o == memory_order_acq_rel ? memory_order_acquire : o == memory_order_release ? memory_order_relaxed : o;
}

/* ---- host: the compiler's builtins ---- */
template <class T> __host__ inline T p_load(const T *p, memory_order o) {
  T r;
  __atomic_load(p, &r, (int)o);
  return r;
}
template <class T> __host__ inline void p_store(T *p, T v, memory_order o) { __atomic_store(p, &v, (int)o); }
template <class T> __host__ inline T p_exchange(T *p, T v, memory_order o) {
  T r;
  __atomic_exchange(p, &v, &r, (int)o);
  return r;
}
template <class T>
__host__ inline bool p_cas(T *p, T &expected, T desired, bool weak, memory_order s, memory_order f) {
  return __atomic_compare_exchange(p, &expected, &desired, weak, (int)s, (int)f);
}
/* read-modify-write by a compare-exchange loop (floats, min, max) */
template <class T, class F> __host__ inline T h_rmw(T *p, F f, memory_order o) {
  T old = p_load(p, memory_order_relaxed);
  while (!p_cas(p, old, f(old), true, o, memory_order_relaxed))
    ;
  return old;
}
template <class T> struct h_add {
  T v;
  __host__ T operator()(T x) const { return x + v; }
};
template <class T> struct h_min {
  T v;
  __host__ T operator()(T x) const { return v < x ? v : x; }
};
template <class T> struct h_max {
  T v;
  __host__ T operator()(T x) const { return x < v ? v : x; }
};
template <class T, class D> __host__ inline T p_fetch_add(T *p, D v, memory_order o) {
  return __atomic_fetch_add(p, v, (int)o);
}
template <class T, class D> __host__ inline T p_fetch_sub(T *p, D v, memory_order o) {
  return __atomic_fetch_sub(p, v, (int)o);
}
__host__ inline float p_fetch_add(float *p, float v, memory_order o) { return h_rmw(p, h_add<float>{v}, o); }
__host__ inline double p_fetch_add(double *p, double v, memory_order o) { return h_rmw(p, h_add<double>{v}, o); }
__host__ inline float p_fetch_sub(float *p, float v, memory_order o) { return h_rmw(p, h_add<float>{-v}, o); }
__host__ inline double p_fetch_sub(double *p, double v, memory_order o) { return h_rmw(p, h_add<double>{-v}, o); }
/* (a pointer moves by elements: the builtins' pointer arithmetic is in bytes) */
template <class T> __host__ inline T *p_fetch_add(T **p, ptrdiff_t v, memory_order o) {
  return __atomic_fetch_add(p, v * (ptrdiff_t)sizeof(T), (int)o);
}
template <class T> __host__ inline T *p_fetch_sub(T **p, ptrdiff_t v, memory_order o) {
  return __atomic_fetch_sub(p, v * (ptrdiff_t)sizeof(T), (int)o);
}
template <class T> __host__ inline T p_fetch_and(T *p, T v, memory_order o) { return __atomic_fetch_and(p, v, (int)o); }
template <class T> __host__ inline T p_fetch_or(T *p, T v, memory_order o) { return __atomic_fetch_or(p, v, (int)o); }
template <class T> __host__ inline T p_fetch_xor(T *p, T v, memory_order o) { return __atomic_fetch_xor(p, v, (int)o); }
template <class T> __host__ inline T p_fetch_min(T *p, T v, memory_order o) { return h_rmw(p, h_min<T>{v}, o); }
template <class T> __host__ inline T p_fetch_max(T *p, T v, memory_order o) { return h_rmw(p, h_max<T>{v}, o); }
__host__ inline void p_fence(memory_order o) { __atomic_thread_fence((int)o); }

#ifdef __CUCC_PARSE__
/* ---- device: CUDA's atomic functions ---- */
__device__ inline void d_before(memory_order o) {
  if (o == memory_order_release || o == memory_order_acq_rel || o == memory_order_seq_cst) __threadfence();
}
__device__ inline void d_after(memory_order o) {
  if (o != memory_order_relaxed && o != memory_order_release) __threadfence();
}

/* the unsigned word of a size, and T's bits in it */
template <int N> struct word;
template <> struct word<1> { typedef unsigned int type; };
template <> struct word<2> { typedef unsigned int type; };
template <> struct word<4> { typedef unsigned int type; };
template <> struct word<8> { typedef unsigned long long type; };
template <class T> struct bits {
  typedef typename word<sizeof(T)>::type W;
  union U {
    T t;
    W w;
  };
  __device__ static W of(T v) {
    U u;
    u.w = 0;
    u.t = v;
    return u.w;
  }
  __device__ static T to(W w) {
    U u;
    u.w = w;
    return u.t;
  }
};

/* Compare-and-swap of T's bits; returns the old value. 1- and 2-byte
 * objects: of the aligned word holding them. */
template <class T, bool Word = (sizeof(T) >= 4)> struct dcas {
  __device__ static T run(T *p, T expected, T desired) {
    typedef typename word<sizeof(T)>::type W;
    return bits<T>::to(atomicCAS((W *)p, bits<T>::of(expected), bits<T>::of(desired)));
  }
};
template <class T> struct dcas<T, false> {
  __device__ static T run(T *p, T expected, T desired) {
    size_t a = (size_t)p;
    unsigned *w = (unsigned *)(a & ~(size_t)3);
    unsigned sh = (unsigned)(a & 3) * 8, mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << sh;
    unsigned e = bits<T>::of(expected) << sh, d = bits<T>::of(desired) << sh;
    unsigned old = *(volatile unsigned *)w;
    for (;;) {
      if ((old & mask) != e) break;
      unsigned seen = atomicCAS(w, old, (old & ~mask) | d);
      if (seen == old) break;
      old = seen;
    }
    return bits<T>::to((old & mask) >> sh);
  }
};
template <class T> __device__ inline T d_cas(T *p, T expected, T desired) { return dcas<T>::run(p, expected, desired); }
/* (an aligned load of up to 8 bytes is one access) */
template <class T> __device__ inline T d_load(const T *p) { return *(const volatile T *)p; }

/* T's new value from the old: the operations CUDA has no function for */
enum { OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_MIN, OP_MAX, OP_SET };
template <class T> __device__ inline T d_apply(int op, T x, T v) {
  switch (op) {
  case OP_ADD: return x + v;
  case OP_SUB: return x - v;
  case OP_MIN: return v < x ? v : x;
  case OP_MAX: return x < v ? v : x;
  case OP_SET: return v;
  }
  return x;
}
template <class T> __device__ inline T d_apply_bits(int op, T x, T v) {
  switch (op) {
  case OP_AND: return x & v;
  case OP_OR: return x | v;
  case OP_XOR: return x ^ v;
  }
  return d_apply(op, x, v);
}
template <class T> __device__ inline T d_rmw(T *p, int op, T v) {
  T old = d_load(p), seen;
  for (;;) {
    seen = d_cas(p, old, d_apply(op, old, v));
    if (bits<T>::of(seen) == bits<T>::of(old)) return old;
    old = seen;
  }
}
template <class T> __device__ inline T d_rmw_bits(T *p, int op, T v) {
  T old = d_load(p), seen;
  for (;;) {
    seen = d_cas(p, old, d_apply_bits(op, old, v));
    if (seen == old) return old;
    old = seen;
  }
}
/* generic: by CAS; CUDA's functions where it has them for the type */
template <class T> __device__ inline T d_exchange(T *p, T v) { return d_rmw(p, OP_SET, v); }
__device__ inline int d_exchange(int *p, int v) { return atomicExch(p, v); }
__device__ inline unsigned d_exchange(unsigned *p, unsigned v) { return atomicExch(p, v); }
__device__ inline unsigned long long d_exchange(unsigned long long *p, unsigned long long v) { return atomicExch(p, v); }
__device__ inline float d_exchange(float *p, float v) { return atomicExch(p, v); }
template <class T> __device__ inline T d_fetch_add(T *p, T v) { return d_rmw(p, OP_ADD, v); }
__device__ inline int d_fetch_add(int *p, int v) { return atomicAdd(p, v); }
__device__ inline unsigned d_fetch_add(unsigned *p, unsigned v) { return atomicAdd(p, v); }
__device__ inline unsigned long long d_fetch_add(unsigned long long *p, unsigned long long v) { return atomicAdd(p, v); }
__device__ inline long long d_fetch_add(long long *p, long long v) {
  return (long long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
__device__ inline float d_fetch_add(float *p, float v) { return atomicAdd(p, v); }
__device__ inline double d_fetch_add(double *p, double v) { return atomicAdd(p, v); }
template <class T> __device__ inline T d_fetch_sub(T *p, T v) { return d_rmw(p, OP_SUB, v); }
__device__ inline int d_fetch_sub(int *p, int v) { return atomicSub(p, v); }
__device__ inline unsigned d_fetch_sub(unsigned *p, unsigned v) { return atomicSub(p, v); }
__device__ inline unsigned long long d_fetch_sub(unsigned long long *p, unsigned long long v) {
  return atomicAdd(p, 0ull - v);
}
__device__ inline long long d_fetch_sub(long long *p, long long v) {
  return (long long)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
template <class T> __device__ inline T d_fetch_and(T *p, T v) { return d_rmw_bits(p, OP_AND, v); }
__device__ inline int d_fetch_and(int *p, int v) { return atomicAnd(p, v); }
__device__ inline unsigned d_fetch_and(unsigned *p, unsigned v) { return atomicAnd(p, v); }
__device__ inline unsigned long long d_fetch_and(unsigned long long *p, unsigned long long v) { return atomicAnd(p, v); }
template <class T> __device__ inline T d_fetch_or(T *p, T v) { return d_rmw_bits(p, OP_OR, v); }
__device__ inline int d_fetch_or(int *p, int v) { return atomicOr(p, v); }
__device__ inline unsigned d_fetch_or(unsigned *p, unsigned v) { return atomicOr(p, v); }
__device__ inline unsigned long long d_fetch_or(unsigned long long *p, unsigned long long v) { return atomicOr(p, v); }
template <class T> __device__ inline T d_fetch_xor(T *p, T v) { return d_rmw_bits(p, OP_XOR, v); }
__device__ inline int d_fetch_xor(int *p, int v) { return atomicXor(p, v); }
__device__ inline unsigned d_fetch_xor(unsigned *p, unsigned v) { return atomicXor(p, v); }
__device__ inline unsigned long long d_fetch_xor(unsigned long long *p, unsigned long long v) { return atomicXor(p, v); }
template <class T> __device__ inline T d_fetch_min(T *p, T v) { return d_rmw(p, OP_MIN, v); }
__device__ inline int d_fetch_min(int *p, int v) { return atomicMin(p, v); }
__device__ inline unsigned d_fetch_min(unsigned *p, unsigned v) { return atomicMin(p, v); }
__device__ inline unsigned long long d_fetch_min(unsigned long long *p, unsigned long long v) { return atomicMin(p, v); }
__device__ inline long long d_fetch_min(long long *p, long long v) { return atomicMin(p, v); }
template <class T> __device__ inline T d_fetch_max(T *p, T v) { return d_rmw(p, OP_MAX, v); }
__device__ inline int d_fetch_max(int *p, int v) { return atomicMax(p, v); }
__device__ inline unsigned d_fetch_max(unsigned *p, unsigned v) { return atomicMax(p, v); }
__device__ inline unsigned long long d_fetch_max(unsigned long long *p, unsigned long long v) { return atomicMax(p, v); }
__device__ inline long long d_fetch_max(long long *p, long long v) { return atomicMax(p, v); }
/* long and unsigned long: as the 8-byte types (LP64) */
__device__ inline long d_fetch_add(long *p, long v) { return (long)d_fetch_add((long long *)p, (long long)v); }
__device__ inline unsigned long d_fetch_add(unsigned long *p, unsigned long v) {
  return (unsigned long)atomicAdd((unsigned long long *)p, (unsigned long long)v);
}
__device__ inline long d_fetch_sub(long *p, long v) { return (long)d_fetch_sub((long long *)p, (long long)v); }
__device__ inline unsigned long d_fetch_sub(unsigned long *p, unsigned long v) {
  return (unsigned long)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)v);
}
template <class T> __device__ inline T *d_fetch_add(T **p, ptrdiff_t v) {
  return (T *)atomicAdd((unsigned long long *)p, (unsigned long long)(v * (ptrdiff_t)sizeof(T)));
}
template <class T> __device__ inline T *d_fetch_sub(T **p, ptrdiff_t v) {
  return (T *)atomicAdd((unsigned long long *)p, 0ull - (unsigned long long)(v * (ptrdiff_t)sizeof(T)));
}

/* the entry points: the host ones' names and arguments */
template <class T> __device__ inline T p_load(const T *p, memory_order o) {
  T r = d_load(p);
  d_after(o);
  return r;
}
template <class T> __device__ inline void p_store(T *p, T v, memory_order o) {
  d_before(o);
  d_exchange(p, v);
  d_after(o);
}
template <class T> __device__ inline T p_exchange(T *p, T v, memory_order o) {
  d_before(o);
  T r = d_exchange(p, v);
  d_after(o);
  return r;
}
template <class T>
__device__ inline bool p_cas(T *p, T &expected, T desired, bool weak, memory_order s, memory_order f) {
  (void)weak;
  (void)f;
  d_before(s);
  T seen = d_cas(p, expected, desired);
  d_after(s);
  bool ok = bits<T>::of(seen) == bits<T>::of(expected);
  expected = seen;
  return ok;
}
#define CUCC_ATOMIC_OP(name)                                                   \
  template <class T, class D> __device__ inline T p_##name(T *p, D v, memory_order o) { \
    d_before(o);                                                               \
    T r = d_##name(p, v);                                                      \
    d_after(o);                                                                \
    return r;                                                                  \
  }
CUCC_ATOMIC_OP(fetch_add)
CUCC_ATOMIC_OP(fetch_sub)
CUCC_ATOMIC_OP(fetch_and)
CUCC_ATOMIC_OP(fetch_or)
CUCC_ATOMIC_OP(fetch_xor)
CUCC_ATOMIC_OP(fetch_min)
CUCC_ATOMIC_OP(fetch_max)
#undef CUCC_ATOMIC_OP
__device__ inline void p_fence(memory_order o) {
  if (o != memory_order_relaxed) __threadfence();
}
#endif
}  // namespace cucc_
}  // namespace cuda
#endif
