/* sm_20_intrinsics.h: a CUDA toolkit header that programs include by name
 * (our own header): the address-space predicates and conversions
 * (__isShared, __cvta_*: cucc_dev.h), __ldg and the rest of
 * device_functions.h, all of which cuda_runtime.h already gives, as nvcc's
 * does for every .cu. */
#ifndef CUCC_SM_20_INTRINSICS_H
#define CUCC_SM_20_INTRINSICS_H
#include "cuda_runtime.h"
#endif
