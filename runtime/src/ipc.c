/* ipc.c: CUDA IPC, device memory and events shared between processes.
 * Device memory is the host's, in a memfd (arena.c): a handle names the
 * exporting process, the memfd's descriptor there and the allocation's
 * offset and size; another process opens /proc/<pid>/fd/<n> and maps those
 * bytes MAP_SHARED. An interprocess event's state (records issued, latest
 * completed) lies in the arena too, so that every process that opened it
 * records it and waits for it (a futex, which works across processes on a
 * shared mapping). CUDA's rules: only cudaMalloc's memory and events made
 * with cudaEventInterprocess have handles, and a process cannot open its
 * own handles. */
#include "rt.h"
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { MEM_MAGIC = 0x4d435543, EV_MAGIC = 0x45435543 };   /* "CUCM", "CUCE" */

typedef struct MemH {   /* a cudaIpcMemHandle_t's bytes */
  unsigned magic;
  int pid, fd, dev;
  unsigned long long off, n, id;
} MemH;

typedef struct EvH {    /* a cudaIpcEventHandle_t's bytes */
  unsigned magic;
  int pid, fd, pad;
  unsigned long long off;
} EvH;

_Static_assert(sizeof(MemH) <= CUDA_IPC_HANDLE_SIZE && sizeof(EvH) <= CUDA_IPC_HANDLE_SIZE, "IPC handle");

/* Maps n bytes at offset off of descriptor fd of process pid: *map is
 * the mapping (whole pages), the result the bytes. NULL if it fails. */
static char *map_remote(int pid, int fd, unsigned long long off, size_t n, char **map, size_t *len) {
  char path[64], link[64];
  snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
  ssize_t k = readlink(path, link, sizeof link - 1);
  if (k <= 0) return NULL;
  link[k] = 0;
  if (strncmp(link, "/memfd:cucc-device-memory", 25) != 0) return NULL;   /* not (or no longer) an arena */
  int f = open(path, O_RDWR | O_CLOEXEC);
  if (f < 0) return NULL;
  size_t pg = (size_t)sysconf(_SC_PAGESIZE), lead = (size_t)(off % pg);
  *len = (lead + n + pg - 1) / pg * pg;
  void *p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_SHARED, f, (off_t)(off - lead));
  close(f);
  if (p == MAP_FAILED) return NULL;
  *map = p;
  return (char *)p + lead;
}

/* ---- memory ---- */
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *h, void *p) {
  RT_API();
  void *base;
  size_t n;
  unsigned long long id;
  int dev;
  MemH m = {MEM_MAGIC, getpid(), -1, 0, 0, 0, 0};
  if (!h || !p || !rt_ipc_source(p, &base, &n, &id, &dev) || !rt_arena_where(base, &m.fd, &m.off))
    return rt_err(cudaErrorInvalidValue);   /* not cudaMalloc's memory */
  m.dev = dev;
  m.n = n;
  m.id = id;
  memset(h, 0, sizeof *h);
  memcpy(h, &m, sizeof m);
  return cudaSuccess;
}

/* What this process opened: one mapping per handle, counted (opening a
 * handle again returns the same pointer, CUDA's rule). */
typedef struct Open {
  int pid;
  unsigned long long id;
  char *p, *map;
  size_t len;
  int refs;
  struct Open *next;
} Open;

static Open *opens;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

cudaError_t cudaIpcOpenMemHandle(void **out, cudaIpcMemHandle_t h, unsigned int flags) {
  RT_API();
  MemH m;
  memcpy(&m, &h, sizeof m);
  if (!out || (flags & ~(unsigned)cudaIpcMemLazyEnablePeerAccess) || m.magic != MEM_MAGIC || !m.n)
    return rt_err(cudaErrorInvalidValue);
  if (m.pid == getpid()) return rt_err(cudaErrorDeviceUninitialized);   /* "invalid device context" */
  pthread_mutex_lock(&mu);
  Open *o = opens;
  while (o && !(o->pid == m.pid && o->id == m.id)) o = o->next;
  if (o) {
    o->refs++;
    *out = o->p;
    pthread_mutex_unlock(&mu);
    return cudaSuccess;
  }
  cudaError_t e = cudaErrorMapBufferObjectFailed;
  o = calloc(1, sizeof *o);
  if (o && (o->p = map_remote(m.pid, m.fd, m.off, m.n, &o->map, &o->len))) {
    if (rt_region_ipc_add(o->p, m.n)) {
      o->pid = m.pid;
      o->id = m.id;
      o->refs = 1;
      o->next = opens;
      opens = o;
      rt_ck_alloc(o->p, m.n, RT_CK_DEV, NULL);
      rt_ck_written(o->p, m.n);   /* what the other process wrote */
      *out = o->p;
      e = cudaSuccess;
    } else munmap(o->map, o->len);
  }
  pthread_mutex_unlock(&mu);
  if (e) free(o);
  return rt_err(e);
}

cudaError_t cudaIpcCloseMemHandle(void *p) {
  RT_API();
  pthread_mutex_lock(&mu);
  Open **q = &opens;
  while (*q && (!p || (*q)->p != (char *)p)) q = &(*q)->next;
  Open *o = *q;
  if (o && --o->refs == 0) *q = o->next;
  pthread_mutex_unlock(&mu);
  if (!o) return rt_err(cudaErrorInvalidValue);
  if (o->refs) return cudaSuccess;
  rt_sync_all();   /* work queued on it first */
  rt_ck_free(o->p, RT_CK_DEV);
  rt_region_ipc_drop(o->p);
  munmap(o->map, o->len);
  free(o);
  return cudaSuccess;
}

/* ---- events ---- */
rt_ipcev *rt_ipcev_new(void) {
  rt_ipcev *s = rt_arena_alloc(sizeof *s);
  if (s) memset(s, 0, sizeof *s);
  return s;
}

void rt_ipcev_free(rt_ipcev *s, bool imported) {
  if (!imported) rt_arena_free(s, sizeof *s);
  else {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    munmap((void *)((uintptr_t)s / pg * pg), pg);   /* (a state never crosses a page: 256-aligned) */
  }
}

cudaError_t rt_ipcev_export(rt_ipcev *s, cudaIpcEventHandle_t *h) {
  EvH v = {EV_MAGIC, getpid(), -1, 0, 0};
  if (!rt_arena_where(s, &v.fd, &v.off)) return cudaErrorMapBufferObjectFailed;
  memset(h, 0, sizeof *h);
  memcpy(h, &v, sizeof v);
  return cudaSuccess;
}

cudaError_t rt_ipcev_import(const cudaIpcEventHandle_t *h, rt_ipcev **out) {
  EvH v;
  memcpy(&v, h, sizeof v);
  if (v.magic != EV_MAGIC) return cudaErrorInvalidValue;
  if (v.pid == getpid()) return cudaErrorDeviceUninitialized;
  char *map;
  size_t len;
  rt_ipcev *s = (rt_ipcev *)map_remote(v.pid, v.fd, v.off, sizeof *s, &map, &len);
  if (!s) return cudaErrorMapBufferObjectFailed;
  *out = s;
  return cudaSuccess;
}

static long futex(_Atomic unsigned *w, int op, unsigned val) {
  return syscall(SYS_futex, (unsigned *)w, op, val, NULL, NULL, 0);
}

/* Record n has completed (a later one may have already). */
void rt_ipcev_complete(rt_ipcev *s, unsigned long long n) {
  unsigned long long d = atomic_load(&s->done);
  while (d < n && !atomic_compare_exchange_weak(&s->done, &d, n)) {}
  atomic_fetch_add(&s->seq, 1);
  futex(&s->seq, FUTEX_WAKE, INT_MAX);
}

/* Until record n has completed, in whichever process recorded it. */
void rt_ipcev_wait(rt_ipcev *s, unsigned long long n) {
  for (;;) {
    unsigned q = atomic_load(&s->seq);
    if (atomic_load(&s->done) >= n) return;
    futex(&s->seq, FUTEX_WAIT, q);
  }
}
