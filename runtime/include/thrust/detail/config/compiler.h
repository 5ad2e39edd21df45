/* thrust/detail/config/compiler.h (cucc): which system runs Thrust's
 * device algorithms, chosen before Thrust's configuration (this header of
 * Thrust's, included next, unchanged) reads it. There is no GPU and device
 * memory is the host's, so a CPU system runs them, on every core: OpenMP's
 * (cucc compiles the host code of a .cu that includes Thrust with
 * -fopenmp), else, where the host compiler has no OpenMP, the serial C++
 * one. A THRUST_DEVICE_SYSTEM the program sets (-D, or a #define before its
 * first Thrust include) is kept, but for CUDA's, which cucc cannot run
 * (Thrust's CUDA system is CUB's kernels) and takes for the default: a CMake
 * project's thrust_create_target() asks for it by name. thrust::cuda's
 * policies are cucc's (thrust/system/cuda/execution_policy.h). */
#ifndef CUCC_THRUST_COMPILER_H
#define CUCC_THRUST_COMPILER_H

/* (Thrust's numbers, defined as Thrust does, to read the choice now) */
#define THRUST_DEVICE_SYSTEM_CUDA 1
#define THRUST_DEVICE_SYSTEM_OMP 2
#define THRUST_DEVICE_SYSTEM_TBB 3
#define THRUST_DEVICE_SYSTEM_CPP 4

#if defined(__CUCC_PARSE__) && !defined(_OPENMP) &&                                       \
    (!defined(THRUST_DEVICE_SYSTEM) || THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA || \
     THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP)
/* cucc's parse reads the host code as the host compiler will build it:
 * with OpenMP, which the driver adds once the parse has seen Thrust */
#define _OPENMP 201511
#endif

#if !defined(THRUST_DEVICE_SYSTEM) || THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#undef THRUST_DEVICE_SYSTEM
#ifdef _OPENMP
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_OMP
#else
#define THRUST_DEVICE_SYSTEM THRUST_DEVICE_SYSTEM_CPP
#endif
#endif
#endif

#include_next <thrust/detail/config/compiler.h>
