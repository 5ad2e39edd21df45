/* math_functions.h: a CUDA toolkit header that programs include by name (our
 * own header): the math API in host and device code (cuda_math.h,
 * device_functions.h), all of which cuda_runtime.h already gives, as nvcc's
 * does for every .cu. */
#ifndef CUCC_MATH_FUNCTIONS_H
#define CUCC_MATH_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
