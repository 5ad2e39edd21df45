// params.h: a header that only kernels.cu includes (the dependency test
// touches it and expects kernels.o, and only it, to be rebuilt)
#pragma once
#define SCALE 3
