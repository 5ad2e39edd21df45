/* cuda.h: provided by cucc (our own header) */
#include "cuda_runtime.h"
