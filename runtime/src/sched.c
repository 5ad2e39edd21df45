/* sched.c: CUCC_SCHEDULE=shuffle[:seed] runs the blocks of each launch, and
 * the warps of each block (in the general version of every region), in a
 * seeded random order, to expose programs that rely on an order CUDA does
 * not promise. The default order (blocks in chunks of consecutive indices,
 * warps 0, 1, ...) gives results that do not depend on the number of workers for
 * programs without races (atomics aside). */
#include "rt.h"

static int on = -1;
static unsigned long long seed, launches;
static unsigned long long *perm, nperm;     /* block order of this launch */
static unsigned long long mul, add, nblk;   /* or an affine one, for huge grids */
enum { NORDERS = 8, MAXPERM = 1 << 22 };
static unsigned *orders, nw;                /* NORDERS warp orders */

static unsigned long long mix(unsigned long long *x) {   /* splitmix64 */
  unsigned long long z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool rt_sched_shuffle(void) {
  if (on < 0) {
    const char *e = getenv("CUCC_SCHEDULE");
    on = e && !strncmp(e, "shuffle", 7);
    if (on) seed = e[7] == ':' ? strtoull(e + 8, NULL, 0) : 1;
    else if (e && *e && strcmp(e, "default"))
      fprintf(stderr, "cucc: CUCC_SCHEDULE=%s: unknown schedule (default or shuffle[:seed])\n", e);
  }
  return on;
}

/* CUCC_VERSIONS: which fast versions of a region may run (all by default;
 * the general one always may), as CU_MODE_NO_* bits. */
unsigned rt_versions(void) {
  static const struct { const char *name; unsigned no; } t[] = {
    {"all", 0},
    {"general", CU_MODE_NO_BW | CU_MODE_NO_ROW | CU_MODE_NO_HROW},
    {"block", CU_MODE_NO_ROW | CU_MODE_NO_HROW},
    {"rows", CU_MODE_NO_BW | CU_MODE_NO_HROW | CU_MODE_NO_PAIR},
    {"halfrows", CU_MODE_NO_BW | CU_MODE_NO_ROW | CU_MODE_NO_PAIR},   /* (pairs of warps: by default) */
  };
  const char *e = getenv("CUCC_VERSIONS");
  if (!e || !*e) return 0;
  for (size_t i = 0; i < sizeof t / sizeof *t; i++)
    if (!strcmp(e, t[i].name)) return t[i].no;
  fprintf(stderr, "cucc: CUCC_VERSIONS=%s: unknown (all, general, block, rows or halfrows)\n", e);
  return 0;
}

static unsigned long long gcd(unsigned long long a, unsigned long long b) {
  while (b) {
    unsigned long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Called with the launch lock held, before any block runs. */
void rt_sched_launch(unsigned long long nblocks, unsigned nwarps) {
  unsigned long long x = seed * 0x100000001b3ull + ++launches;
  nblk = nblocks;
  if (nblocks <= MAXPERM) {
    if (nblocks > nperm) {
      perm = realloc(perm, nblocks * sizeof *perm);
      nperm = perm ? nblocks : 0;
    }
    for (unsigned long long i = 0; i < nblocks && perm; i++) perm[i] = i;
    for (unsigned long long i = nblocks; i > 1 && perm; i--) {   /* Fisher-Yates */
      unsigned long long j = mix(&x) % i, t = perm[i - 1];
      perm[i - 1] = perm[j];
      perm[j] = t;
    }
  } else {
    do mul = mix(&x) % nblocks | 1; while (gcd(mul, nblocks) != 1);
    add = mix(&x) % nblocks;
  }
  orders = realloc(orders, (size_t)NORDERS * nwarps * sizeof *orders);
  nw = nwarps;
  for (unsigned o = 0; o < NORDERS; o++) {
    unsigned *w = orders + (size_t)o * nwarps;
    for (unsigned i = 0; i < nwarps; i++) w[i] = i;
    for (unsigned i = nwarps; i > 1; i--) {
      unsigned j = (unsigned)(mix(&x) % i), t = w[i - 1];
      w[i - 1] = w[j];
      w[j] = t;
    }
  }
}

unsigned long long rt_sched_block(unsigned long long i) {
  if (nblk <= MAXPERM) return perm ? perm[i] : i;
  return (unsigned long long)(((unsigned __int128)mul * i + add) % nblk);
}

const unsigned *rt_sched_warps(unsigned long long block) { return orders + block % NORDERS * nw; }
