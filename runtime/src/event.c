/* event.c: events and streams. Work runs when it is issued (launches
 * return after the grid completes), so every stream is always idle and an
 * event records the host clock at the moment its stream reaches it. */
#include "rt.h"
#include <time.h>

struct CUevent_st { double ms; int recorded; unsigned flags; };
struct CUstream_st { unsigned flags; };

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags) {
  if (!e) return rt_err(cudaErrorInvalidValue);
  *e = calloc(1, sizeof **e);
  if (!*e) return rt_err(cudaErrorMemoryAllocation);
  (*e)->flags = flags;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  (void)s;
  if (!e) return rt_err(cudaErrorInvalidResourceHandle);
  e->ms = now_ms();
  e->recorded = 1;
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (!e) return rt_err(cudaErrorInvalidResourceHandle);
  return rt_err(rt_take_sticky());
}

cudaError_t cudaEventQuery(cudaEvent_t e) {
  if (!e) return rt_err(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  if (!ms) return rt_err(cudaErrorInvalidValue);
  if (!a || !b) return rt_err(cudaErrorInvalidResourceHandle);
  if ((a->flags | b->flags) & cudaEventDisableTiming) return rt_err(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded) return rt_err(cudaErrorInvalidResourceHandle);
  *ms = (float)(b->ms - a->ms);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (!e) return rt_err(cudaErrorInvalidResourceHandle);
  free(e);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
  if (!s) return rt_err(cudaErrorInvalidValue);
  *s = calloc(1, sizeof **s);
  if (!*s) return rt_err(cudaErrorMemoryAllocation);
  (*s)->flags = flags;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, 0); }

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (s && s != cudaStreamLegacy && s != cudaStreamPerThread) free(s);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  (void)s;
  return rt_err(rt_take_sticky());
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  (void)s;
  return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int f) {
  (void)s;
  (void)e;
  (void)f;
  return cudaSuccess;
}
