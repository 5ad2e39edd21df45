/* sm_32_intrinsics.h: a CUDA toolkit header that programs include by name
 * (our own header): __ldg, __ldcg ... and the funnel shifts
 * (device_functions.h), all of which cuda_runtime.h already gives, as nvcc's
 * does for every .cu. */
#ifndef CUCC_SM_32_INTRINSICS_H
#define CUCC_SM_32_INTRINSICS_H
#include "cuda_runtime.h"
#endif
