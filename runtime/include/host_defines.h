/* host_defines.h: CUDA's function and variable qualifiers for the three
 * readers of cucc's headers: libclang in CUDA mode (__CUCC_PARSE__: clang's
 * CUDA attributes), the host C++ compiler and the runtime's C (nothing). */
#ifndef CUCC_HOST_DEFINES_H
#define CUCC_HOST_DEFINES_H
/* CUDA's guard: Thrust's guarded_cuda_runtime_api.h, seeing none, would
 * undefine __host__ and __device__ and include cuda_runtime_api.h again
 * for CUDA's to define them, which ours (included already) does not */
#define __HOST_DEFINES_H__
#if defined(__CUCC_PARSE__)
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang's `managed` attribute is HIP's only (ignored in CUDA mode, leaving a
 * host variable that device code may not name); CUDA's __managed__ implies
 * __device__, and memory is unified here, so a managed variable is a
 * __device__ one: one object that host code and kernels both use */
#define __managed__ __attribute__((device))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is a keyword of clang's CUDA mode: no macro, so libstdc++'s
 * own __attribute__((__noinline__)) (<memory>, <future>) stays intact */
#else
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __forceinline__ inline __attribute__((always_inline))
/* Any definition other than none breaks libstdc++'s
 * __attribute__((__noinline__)) (<memory>, <future>); in host code it is
 * only an inlining hint (device code is the lowering's C) */
#define __noinline__
#endif
/* a kernel parameter the kernel only reads (no copy is made on a GPU; here
 * the parameter buffer is the kernel's own anyway) */
#define __grid_constant__
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __device_builtin__
#define CUDARTAPI
#define CUDART_CB   /* the calling convention of stream callbacks (Windows only) */
#endif
