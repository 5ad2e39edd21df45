/* cfg.h: found only through -I (tests/multi/inc); read by device code. */
#ifndef CFG_H
#define CFG_H
#define OFFSET 11
static __device__ __host__ inline int offset_of(int i) { return OFFSET + (i & 1); }
#endif
