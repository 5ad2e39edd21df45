/* cuda_pipeline.h: CUDA's pipeline primitives (our own header):
 * __pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior and
 * their C++ forms. A GPU copies asynchronously and a thread's copies are
 * there once its __pipeline_wait_prior(n) returns; here, as in
 * cuda/pipeline, each copy is made when it is called, so commits and waits
 * have nothing left to do (another thread's copies are there after the
 * block's barrier, on a GPU too). */
#ifndef CUCC_CUDA_PIPELINE_H
#define CUCC_CUDA_PIPELINE_H
#include "cuda_runtime.h"

/* copies n - zfill bytes of src and zeroes the last zfill bytes of dst (n:
 * 4, 8 or 16, as CUDA requires) */
static __device__ inline void __pipeline_memcpy_async(void *__restrict__ dst, const void *__restrict__ src,
                                                      size_t n, size_t zfill = 0) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t k = zfill < n ? n - zfill : 0;
  for (size_t i = 0; i < k; i++) d[i] = s[i];
  for (size_t i = k; i < n; i++) d[i] = 0;
}
static __device__ inline void __pipeline_commit(void) {}
static __device__ inline void __pipeline_wait_prior(size_t prior) { (void)prior; }

#ifdef __cplusplus
namespace nvcuda {
namespace experimental {
/* the C++ form: dst = src, for a T of 4, 8 or 16 bytes */
template <class T> __device__ inline void memcpy_async(T &dst, const T &src) {
  __pipeline_memcpy_async(&dst, &src, sizeof(T));
}
template <class T, size_t N> __device__ inline void memcpy_async(T (*dst)[N], const T (*src)[N]) {
  __pipeline_memcpy_async(dst, src, sizeof(T) * N);
}
class pipeline {
 public:
  __device__ pipeline() {}
  __device__ void commit() {}
  __device__ void commit_and_wait() {}
  __device__ void wait_prior(size_t) {}
};
}   // namespace experimental
}   // namespace nvcuda
#endif
#endif
