/* cucc_dev.h: included by the device C that cucc generates (and nothing
 * else). Helpers for warps of 32 lanes; kept static inline so that the C
 * compiler sees through them and vectorizes the lane loops around them. */
#ifndef CUCC_DEV_H
#define CUCC_DEV_H
#include <cucc_rt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thread indices of the lanes of warp w; returns how many lanes the warp
 * has (the last warp of a block may be partial). Lane = linear thread id
 * % 32 with x fastest, then y, then z. */
static inline int cu_warp_ids(const cu_block *B, unsigned w, unsigned *tx, unsigned *ty,
                              unsigned *tz) {
  unsigned base = w * 32u, dx = B->blockDim.x, dy = B->blockDim.y;
  unsigned n = B->nthreads - base;
  if (n > 32u) n = 32u;
  if (dx % 32u == 0) {
    /* whole warps along x: y and z are the same for every lane */
    unsigned x0 = base % dx, r = base / dx;
    for (unsigned l = 0; l < 32u; l++) {
      tx[l] = x0 + l;
      ty[l] = r % dy;
      tz[l] = r / dy;
    }
    return (int)n;
  }
  for (unsigned l = 0; l < 32u; l++) {
    unsigned t = base + l;
    tx[l] = t % dx;
    ty[l] = (t / dx) % dy;
    tz[l] = t / (dx * dy);
  }
  return (int)n;
}

/* Is any lane of a mask set? */
static inline int cu_any(const unsigned char *m) {
  unsigned r = 0;
  for (int l = 0; l < 32; l++) r |= m[l];
  return r != 0;
}

/* __threadfence*(): a full fence is strong enough for every scope. */
static inline void cu_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* Block-level control flow around a __syncthreads() had a condition that
 * differed between threads: the barrier at bfile:bline is reached by only
 * `reached` of the `live` threads. Reported as a kernel fault: the block
 * stops and the launch fails. */
static inline void cu_barrier_diverged(const cu_block *B, unsigned tid, const char *cfile, int cline,
                                       const char *bfile, int bline, unsigned reached,
                                       unsigned live, const char *what) {
  char msg[512];
  snprintf(msg, sizeof msg,
           "divergent __syncthreads(): reached by %u of %u threads (the %s condition at %s:%d "
           "differs between threads of the block)",
           reached, live, what, cfile, cline);
  cu_fault(B, tid, bfile, bline, msg);
}

#endif
