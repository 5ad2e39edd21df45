/* nvToolsExt.h: NVTX's older path (our own header): nvtx3/nvToolsExt.h */
#include "nvtx3/nvToolsExt.h"
