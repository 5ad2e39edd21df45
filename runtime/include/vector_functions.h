/* vector_functions.h: a CUDA toolkit header that programs include by name
 * (our own header): the make_* constructors of the vector types
 * (vector_types.h has them), all of which cuda_runtime.h already gives, as
 * nvcc's does for every .cu. */
#ifndef CUCC_VECTOR_FUNCTIONS_H
#define CUCC_VECTOR_FUNCTIONS_H
#include "cuda_runtime.h"
#endif
