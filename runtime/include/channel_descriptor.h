/* channel_descriptor.h: a CUDA toolkit header that programs include by name
 * (our own header): cudaCreateChannelDesc<T>() (cuda_runtime.h), all of
 * which cuda_runtime.h already gives, as nvcc's does for every .cu. */
#ifndef CUCC_CHANNEL_DESCRIPTOR_H
#define CUCC_CHANNEL_DESCRIPTOR_H
#include "cuda_runtime.h"
#endif
