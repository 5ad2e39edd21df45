/* symbol.c: __device__, __constant__ and __managed__ variables seen from the
 * host. Device memory is host memory, so such a variable is one object (the
 * host unit defines it, the device C names it by its linker symbol); the
 * device object registers each one with its size, and the symbol API checks
 * a symbol against that table as CUDA does before copying. */
#include "rt.h"

/* writer: the device that last copied into it (-1: none yet), to say once
 * that the devices share it when another device writes other contents */
typedef struct Sym { const char *addr; size_t size; const char *name; int writer; bool warned; } Sym;
/* a static variable: its address by key, and the device object's pointers
 * waiting for it */
typedef struct Key { const char *key; const void *addr; } Key;
typedef struct Slot { const char *key; void **slot; } Slot;

static Sym *syms;
static Key *keys;
static Slot *slots;
static int nsyms, capsyms, nslots, capslots, nkeys, capkeys;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *grow(void *v, int n, int *cap, size_t sz) {
  if (n < *cap) return v;
  *cap = *cap ? *cap * 2 : 16;
  v = realloc(v, sz * *cap);
  if (!v) abort();
  return v;
}

void cu_register_symbol(const void *addr, size_t size, const char *name) {
  pthread_mutex_lock(&mu);
  syms = grow(syms, nsyms, &capsyms, sizeof *syms);
  syms[nsyms++] = (Sym){addr, size, name, -1, false};
  pthread_mutex_unlock(&mu);
}

/* A static __device__/__constant__ variable: only its own (host) unit can
 * name it, so that unit registers its address under a key and the device
 * object, which reads it through a pointer, binds that pointer by the key.
 * The two constructors may run in either order. */
void cu_register_static_symbol(const void *addr, size_t size, const char *key) {
  cu_register_symbol(addr, size, key);
  pthread_mutex_lock(&mu);
  keys = grow(keys, nkeys, &capkeys, sizeof *keys);
  keys[nkeys++] = (Key){key, addr};
  for (int i = 0; i < nslots; i++)
    if (!strcmp(slots[i].key, key)) *slots[i].slot = (void *)addr;
  pthread_mutex_unlock(&mu);
}

void cu_bind_static_symbol(const char *key, void **slot) {
  pthread_mutex_lock(&mu);
  slots = grow(slots, nslots, &capslots, sizeof *slots);
  slots[nslots++] = (Slot){key, slot};
  for (int i = 0; i < nkeys; i++)
    if (!strcmp(keys[i].key, key)) *slot = (void *)keys[i].addr;
  pthread_mutex_unlock(&mu);
}

/* The registered variable at exactly `sym` (CUDA takes the variable, not an
 * address inside it), or NULL. */
static const Sym *find(const void *sym) {
  const Sym *r = NULL;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < nsyms && !r; i++)
    if (syms[i].addr == sym) r = &syms[i];
  pthread_mutex_unlock(&mu);
  return r;
}

/* Checks shared by the copies: the address inside the symbol, or NULL
 * with the error recorded in *e. */
static char *at(const void *sym, size_t n, size_t off, cudaError_t *e) {
  const Sym *s = find(sym);
  if (!s) {
    *e = rt_err(cudaErrorInvalidSymbol);
    return NULL;
  }
  if (off > s->size || n > s->size - off) {
    *e = rt_err(cudaErrorInvalidValue);
    return NULL;
  }
  return (char *)s->addr + off;
}

/* On a GPU each device has its own copy of a __device__ or __constant__
 * variable; here all devices share one. Setting it to other contents from
 * another device (a per-device value) is said once, at the copy. */
static void shared_write(const void *sym, const char *d, const void *src, size_t n) {
  int me = rt_cur()->id;
  pthread_mutex_lock(&mu);
  Sym *s = NULL;
  for (int i = 0; i < nsyms && !s; i++)
    if (syms[i].addr == sym) s = &syms[i];
  if (s && s->writer >= 0 && s->writer != me && !s->warned && src && memcmp(d, src, n)) {
    s->warned = true;
    fprintf(stderr,
            "cucc: warning: '%s' is given other contents on device %d than on device %d: the simulated devices "
            "share one copy of each __device__ and __constant__ variable (docs/devices.md)\n",
            s->name ? s->name : "a __device__ variable", me, s->writer);
  }
  if (s) s->writer = me;
  pthread_mutex_unlock(&mu);
}

cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t off,
                                    enum cudaMemcpyKind kind, cudaStream_t st) {
  RT_API();
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return rt_err(cudaErrorInvalidMemcpyDirection);
  cudaError_t e = cudaSuccess;
  char *d = at(sym, n, off, &e);
  if (d && rt_ndev() > 1) shared_write(sym, d, src, n);
  return d ? cudaMemcpyAsync(d, src, n, kind, st) : e;
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t off,
                                      enum cudaMemcpyKind kind, cudaStream_t st) {
  RT_API();
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return rt_err(cudaErrorInvalidMemcpyDirection);
  cudaError_t e = cudaSuccess;
  char *s = at(sym, n, off, &e);
  return s ? cudaMemcpyAsync(dst, s, n, kind, st) : e;
}

/* The synchronous forms wait for the legacy default stream, as cudaMemcpy. */
cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off,
                               enum cudaMemcpyKind kind) {
  RT_API();
  cudaError_t e = cudaMemcpyToSymbolAsync(sym, src, n, off, kind, 0);
  return e ? e : cudaStreamSynchronize(0);
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off,
                                 enum cudaMemcpyKind kind) {
  RT_API();
  cudaError_t e = cudaMemcpyFromSymbolAsync(dst, sym, n, off, kind, 0);
  return e ? e : cudaStreamSynchronize(0);
}

cudaError_t cudaGetSymbolAddress(void **p, const void *sym) {
  RT_API();
  if (!p) return rt_err(cudaErrorInvalidValue);
  if (!find(sym)) return rt_err(cudaErrorInvalidSymbol);
  *p = (void *)sym;
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t *n, const void *sym) {
  RT_API();
  if (!n) return rt_err(cudaErrorInvalidValue);
  const Sym *s = find(sym);
  if (!s) return rt_err(cudaErrorInvalidSymbol);
  *n = s->size;
  return cudaSuccess;
}
