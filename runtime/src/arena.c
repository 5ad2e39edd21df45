/* arena.c: the memory of cudaMalloc, in a form another process can map.
 * cudaIpcGetMemHandle may be called on any allocation at any time after
 * cudaMalloc, so its bytes must be shareable from the start: they lie in a
 * memfd (an anonymous file of the kernel's shared memory) mapped
 * MAP_SHARED, which another process opens as /proc/<pid>/fd/<n> (ipc.c).
 *
 * A file and a mapping per allocation would cost a dozen microseconds and
 * fresh page faults on every cudaMalloc; glibc's malloc, which served it
 * before, reuses freed memory whose pages are already there. So does this:
 * one large sparse memfd (more when it fills), carved into blocks of size
 * classes (four per power of two), freed blocks kept on their class's list
 * for the next allocation of that class. A freed block keeps its pages
 * (the next cudaMalloc of its size takes it without page faults); past
 * RETAIN bytes of such blocks in all, the pages of the oldest go back to
 * the system (a hole punched in the file), and those of a block larger
 * than RETAIN at once, as glibc unmaps its large chunks. */
#include "rt.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN   /* free and unused bytes of a block are poisoned, as malloc's are */
#include <sanitizer/asan_interface.h>
#define poison(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define poison(p, n) ((void)(p), (void)(n))
#define unpoison(p, n) ((void)(p), (void)(n))
#endif

enum { NCLASS = 160, MAXARENA = 64 };
#define RETAIN ((size_t)256 << 20)
#define MINARENA ((size_t)1 << 30)
#define MAXSIZE ((size_t)1 << 44)

typedef struct Arena {
  char *base;
  size_t size, top;   /* bytes mapped; bytes handed out so far */
  int fd;
  pid_t pid;          /* the process that made it (see on_fork) */
} Arena;

typedef struct Block {
  char *p;
  bool kept;                  /* its pages are still there */
  unsigned long long when;    /* freed when (a count of frees) */
} Block;

static Arena arenas[MAXARENA];
static int narenas;
static struct {
  Block *v;
  size_t n, cap;
  size_t old;         /* v[0..old) are not kept */
} freel[NCLASS];
static size_t retained;   /* bytes of kept free blocks */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pid_t me;          /* getpid() (a system call) */

/* Size classes: 256, then 1.25, 1.5, 1.75 and 2 times each power of two. */
static int cls(size_t n) {
  if (n <= 256) return 0;
  size_t m = n - 1;
  int b = 63 - __builtin_clzll(m);
  return (b - 8) * 4 + (int)(m >> (b - 2) & 3) + 1;
}

static size_t cls_size(int c) {
  if (c == 0) return 256;
  int b = (c - 1) / 4 + 8;
  return (size_t)(5 + (c - 1) % 4) << (b - 2);
}

/* A child of fork() shares the parent's arenas (MAP_SHARED): it must not
 * hand out their free blocks, nor punch holes in them, or each process
 * would overwrite the other's memory. Its new allocations come from arenas
 * of its own; what it inherited stays mapped, shared, as long as it lives. */
static void on_fork(void) {
  for (int c = 0; c < NCLASS; c++) freel[c].n = freel[c].old = 0;
  me = getpid();
  retained = 0;
  pthread_mutex_init(&mu, NULL);
}

/* The first arena: room for every device's memory twice over (size
 * classes round up), sparse: only pages touched take memory. */
static bool grow(size_t need) {
  static bool once;
  if (!once) {
    pthread_atfork(NULL, NULL, on_fork);
    me = getpid();
    once = true;
  }
  if (narenas == MAXARENA) return false;
  size_t want = 0;
  for (int d = 0; d < rt_ndev(); d++) want += rt_dev_at(d)->total;
  want = want > MAXSIZE / 2 ? MAXSIZE : want * 2;
  if (want < MINARENA) want = MINARENA;
  if (want < need) want = need;
  int fd = memfd_create("cucc-device-memory", MFD_CLOEXEC);
  if (fd < 0) return false;
  for (; want >= need && want >= MINARENA; want /= 2) {   /* (an address space of less: a smaller one) */
    if (ftruncate(fd, (off_t)want) != 0) continue;
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED) continue;
    arenas[narenas++] = (Arena){p, want, 0, fd, me};
    return true;
  }
  close(fd);
  return false;
}

static Arena *arena_of(const void *p) {
  for (int i = 0; i < narenas; i++)
    if ((const char *)p >= arenas[i].base && (const char *)p < arenas[i].base + arenas[i].size) return &arenas[i];
  return NULL;
}

/* Its pages back to the system (whole pages inside the block only). */
static void punch(Arena *a, char *p, size_t n) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t lo = ((size_t)(p - a->base) + pg - 1) / pg * pg, hi = (size_t)(p + n - a->base) / pg * pg;
  if (hi > lo) fallocate(a->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)lo, (off_t)(hi - lo));
}

/* n bytes, 256-aligned (a page for a page or more); NULL when out of room. */
void *rt_arena_alloc(size_t n) {
  if (n > MAXSIZE) return NULL;
  int c = cls(n);
  size_t sz = cls_size(c);
  char *p = NULL;
  pthread_mutex_lock(&mu);
  if (freel[c].n) {
    Block b = freel[c].v[--freel[c].n];
    p = b.p;
    if (b.kept) retained -= sz;
    if (freel[c].old > freel[c].n) freel[c].old = freel[c].n;
  } else {
    size_t align = sz >= 4096 ? 4096 : 256;
    for (int tries = 0; !p && tries < 2; tries++) {
      Arena *a = narenas && arenas[narenas - 1].pid == me ? &arenas[narenas - 1] : NULL;
      size_t at = a ? (a->top + align - 1) / align * align : 0;
      if (a && at + sz <= a->size) {
        p = a->base + at;
        a->top = at + sz;
      } else if (!grow(sz)) break;
    }
  }
  pthread_mutex_unlock(&mu);
  if (p) {
    unpoison(p, n);
    poison(p + n, sz - n);
  }
  return p;
}

/* Kept free blocks past RETAIN bytes: the least recently freed give their
 * pages back (mu held). A class's list is in the order of its frees, so
 * its oldest kept block is its first past `old`. */
static void trim(void) {
  while (retained > RETAIN) {
    int best = -1;
    for (int c = 0; c < NCLASS; c++) {
      while (freel[c].old < freel[c].n && !freel[c].v[freel[c].old].kept) freel[c].old++;
      if (freel[c].old < freel[c].n &&
          (best < 0 || freel[c].v[freel[c].old].when < freel[best].v[freel[best].old].when))
        best = c;
    }
    if (best < 0) return;
    Block *b = &freel[best].v[freel[best].old++];
    punch(arena_of(b->p), b->p, cls_size(best));
    b->kept = false;
    retained -= cls_size(best);
  }
}

/* A block of rt_arena_alloc(n) back; false if p is not the arena's. */
bool rt_arena_free(void *p, size_t n) {
  int c = cls(n);
  size_t sz = cls_size(c);
  pthread_mutex_lock(&mu);
  Arena *a = arena_of(p);
  if (!a || a->pid != me) {   /* (inherited from the parent: stays its) */
    pthread_mutex_unlock(&mu);
    return a != NULL;
  }
  static unsigned long long frees;
  Block b = {p, sz <= RETAIN, ++frees};
  poison(p, sz);   /* (before another thread may take it) */
  if (!b.kept) punch(a, p, sz);
  if (freel[c].n == freel[c].cap) {
    size_t cap = freel[c].cap ? freel[c].cap * 2 : 16;
    Block *v = realloc(freel[c].v, cap * sizeof *v);
    if (!v) {   /* lost to this process, not to the system */
      if (b.kept) punch(a, p, sz);
      pthread_mutex_unlock(&mu);
      return true;
    }
    freel[c].v = v;
    freel[c].cap = cap;
  }
  freel[c].v[freel[c].n++] = b;
  if (b.kept) {
    retained += sz;
    trim();
  }
  pthread_mutex_unlock(&mu);
  return true;
}

/* Where p lies: the arena's file descriptor and p's offset in it. */
bool rt_arena_where(const void *p, int *fd, unsigned long long *off) {
  pthread_mutex_lock(&mu);
  Arena *a = arena_of(p);
  if (a) {
    *fd = a->fd;
    *off = (unsigned long long)((const char *)p - a->base);
  }
  pthread_mutex_unlock(&mu);
  return a != NULL;
}
