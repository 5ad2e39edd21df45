/* device_launch_parameters.h: provided by cucc (our own header) */
#include "cuda_runtime.h"
