/* prof.c: CUCC_PROFILE=1, nvprof's divergence metrics for every kernel,
 * printed at exit. Counting happens in the general version of each region
 * (under CUCC_PROFILE every region takes it, see cu_rt_mode), into the
 * kernel's cu_prof; launch.c adds time and occupancy per launch. */
#include "rt.h"

unsigned cu_rt_mode;

typedef struct Kp { const cu_kernel *k; unsigned long launches; double ms, occ; } Kp;
static Kp kps[256];
static int nkps, on = -1;

void cu_prof_add(cu_prof *p, unsigned long long lanes, unsigned long long stmts, unsigned long long branches,
                 unsigned long long divergent) {
  __atomic_fetch_add(&p->lanes, lanes, __ATOMIC_RELAXED);
  __atomic_fetch_add(&p->stmts, stmts, __ATOMIC_RELAXED);
  __atomic_fetch_add(&p->branches, branches, __ATOMIC_RELAXED);
  __atomic_fetch_add(&p->divergent, divergent, __ATOMIC_RELAXED);
}

static double pct(unsigned long long a, unsigned long long b) { return b ? 100.0 * (double)a / (double)b : 100.0; }

static void print(void) {
  for (int i = 0; i < nkps; i++) {
    const Kp *x = &kps[i];
    const cu_prof *p = x->k->prof;
    fprintf(stderr, "%s: launches=%lu time_ms=%.3f occupancy=%.1f%% warp_efficiency=%.1f%% branch_efficiency=%.1f%%\n",
            x->k->pretty, x->launches, x->ms, 100.0 * x->occ / x->launches, p ? pct(p->lanes, 32 * p->stmts) : 100.0,
            p ? pct(p->branches - p->divergent, p->branches) : 100.0);
    for (unsigned s = 0; p && s < p->nsites; s++)
      if (p->splits[s])
        fprintf(stderr, "    divergent branch at %s:%d: %llu warp splits\n", p->files[s], p->lines[s], p->splits[s]);
  }
}

bool rt_prof_on(void) {
  if (on < 0) {
    const char *e = getenv("CUCC_PROFILE");
    on = e && *e && strcmp(e, "0");
  }
  return on;
}

void rt_prof_note(const cu_kernel *k, double ms, double occupancy) {
  int i = 0;
  while (i < nkps && kps[i].k != k) i++;
  if (i == nkps) {
    if (nkps == 256) return;
    if (!nkps) atexit(print);
    kps[nkps++] = (Kp){k, 0, 0, 0};
  }
  kps[i].launches++;
  kps[i].ms += ms;
  kps[i].occ += occupancy;
}
