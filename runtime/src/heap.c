/* heap.c: the device heap (malloc/free and new/delete in device code).
 * Device memory is host memory here, so a block is the C library's; what
 * makes it CUDA's heap is its size: cudaDeviceSetLimit(cudaLimitMallocHeapSize)
 * (8 MB unless set) bounds the bytes in use, and malloc past it returns
 * NULL, as a GPU's does. Each block carries its size in a header so free
 * can give the bytes back. */
#include "rt.h"
#include <stdatomic.h>
#include <stdlib.h>

static _Atomic size_t inuse;
enum { HDR = 16 };   /* keeps the user's block 16-byte aligned, as CUDA's */

void *cu_dev_malloc(size_t n) {
  size_t lim = rt_heap_limit(), cur = atomic_load(&inuse);
  do {
    if (n > lim || cur > lim - n) return NULL;
  } while (!atomic_compare_exchange_weak(&inuse, &cur, cur + n));
  char *p = malloc(HDR + (n ? n : 1));
  if (!p) {
    atomic_fetch_sub(&inuse, n);
    return NULL;
  }
  *(size_t *)p = n;
  rt_ck_alloc(p + HDR, n, RT_CK_RT, NULL);   /* (--check: an allocation device code may use) */
  return p + HDR;
}

void cu_dev_free(void *q) {
  if (!q) return;
  char *p = (char *)q - HDR;
  rt_ck_free(q, RT_CK_RT);
  atomic_fetch_sub(&inuse, *(size_t *)p);
  free(p);
}
