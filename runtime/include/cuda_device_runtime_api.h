/* cuda_device_runtime_api.h: provided by cucc (our own header) */
#include "cuda_runtime.h"
