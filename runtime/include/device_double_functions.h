/* device_double_functions.h: a CUDA toolkit header that programs include by
 * name (our own header): the double-precision intrinsics
 * (device_functions.h), all of which cuda_runtime.h already gives, as nvcc's
 * does for every .cu. */
#ifndef CUCC_DEVICE_DOUBLE_FUNCTIONS_H
#define CUCC_DEVICE_DOUBLE_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
