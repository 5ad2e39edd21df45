/* device_atomic_functions.h: a CUDA toolkit header that programs include by
 * name (our own header): atomicAdd ... atomicCAS (cucc_atomic.h), all of
 * which cuda_runtime.h already gives, as nvcc's does for every .cu. */
#ifndef CUCC_DEVICE_ATOMIC_FUNCTIONS_H
#define CUCC_DEVICE_ATOMIC_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
