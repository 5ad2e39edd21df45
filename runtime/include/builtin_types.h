/* builtin_types.h: a CUDA toolkit header that programs include by name (our
 * own header): the vector, channel, surface and driver types, all of which
 * cuda_runtime.h already gives, as nvcc's does for every .cu. */
#ifndef CUCC_BUILTIN_TYPES_H
#define CUCC_BUILTIN_TYPES_H
#include "cuda_runtime.h"
#endif
