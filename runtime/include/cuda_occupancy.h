/* cuda_occupancy.h: provided by cucc (our own header). CUDA's occupancy
 * calculator (cudaOcc*) is not provided: Thrust's CUDA core, which CUB's
 * merge sort includes, includes this header without using it. The runtime
 * API's cudaOccupancyMaxActiveBlocksPerMultiprocessor and
 * cudaOccupancyMaxPotentialBlockSize are (cuda_runtime_api.h). */
#ifndef CUCC_CUDA_OCCUPANCY_H
#define CUCC_CUDA_OCCUPANCY_H
#include "cuda_runtime_api.h"
#endif
