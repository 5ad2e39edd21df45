/* device_types.h: a CUDA toolkit header (our own): the rounding modes that
 * some conversion APIs take (cuda_fp8.h's e8m0 ones in CUDA; here for
 * programs that name them). cuda_runtime.h includes it, as CUDA's does. */
#ifndef CUCC_DEVICE_TYPES_H
#define CUCC_DEVICE_TYPES_H
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
