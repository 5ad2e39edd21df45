/* thrust/system/cuda/future.h (cucc): Thrust's asynchronous algorithms (thrust::async,
 * thrust::future, thrust::event) exist for its CUDA system only, which
 * cucc replaces by a CPU one (thrust/detail/config/compiler.h): said here,
 * at the include, rather than as a missing header. */
#error "cucc: Thrust's asynchronous algorithms (thrust::async, futures, events) are not supported: they need Thrust's CUDA system (docs/compatibility.md, Thrust)"
