/* calc.c: questions to the runtime's occupancy rules: one configuration,
 * how far a resource may grow before the next cliff, and the calculator's
 * three graphs. Blocks per SM never grow as a block asks for more of a
 * resource, so every search is a bisection. */
#include "occ.h"

OcRes oc_eval(const rt_model *m, OcCfg c) {
  OcRes r = {c, {0}, (c.threads + 31) / 32, 0, m->threads_sm / 32};
  rt_occupancy(m, c.threads, c.regs, c.smem, &r.o);
  r.warps = r.o.blocks * r.warps_block;
  return r;
}

size_t oc_smem_limit(const rt_model *m) {
  return (size_t)(m->smem_optin > m->smem_block ? m->smem_optin : m->smem_block);
}

static long top(const rt_model *m, int what) {
  return what == OC_THREADS ? m->threads_block : what == OC_REGS ? m->max_regs_thread : (long)oc_smem_limit(m);
}

static int blocks_at(const rt_model *m, OcCfg c, int what, long v) {
  if (what == OC_REGS) c.regs = (int)v;
  else if (what == OC_SMEM) c.smem = (size_t)v;
  else c.threads = (int)v;
  return rt_occupancy(m, c.threads, c.regs, c.smem, NULL);
}

/* The largest registers per thread (or shared memory per block) at which
 * an SM still holds `blocks` blocks; -1 if not even the least does. */
long oc_most(const rt_model *m, OcCfg c, int what, int blocks) {
  long lo = what == OC_REGS ? 1 : 0, hi = top(m, what);
  if (blocks_at(m, c, what, lo) < blocks) return -1;
  while (lo < hi) {
    long mid = lo + (hi - lo + 1) / 2;
    if (blocks_at(m, c, what, mid) >= blocks) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* The largest value that gives more than `blocks` blocks; -1 if none. */
long oc_gain(const rt_model *m, OcCfg c, int what, int blocks) { return oc_most(m, c, what, blocks + 1); }

static void add(OcGraph *g, long x, OcRes r) {
  g->p = realloc(g->p, (g->n + 1) * sizeof *g->p);
  g->p[g->n++] = (OcPt){x, r.o.blocks, r.warps, r.o.limiter};
}

/* NVIDIA's three graphs: block sizes in warps up to the block limit
 * (__launch_bounds__ or the model's), every register count, shared memory
 * in the model's allocation units. */
void oc_graphs(OcCase *k) {
  const rt_model *m = k->m;
  OcCfg c = k->r.c;
  OcGraph *g = k->g;
  for (int i = 0; i < OC_NGRAPH; i++) g[i] = (OcGraph){i, NULL, 0, top(m, i)};
  g[OC_THREADS].xmax = k->max_threads;
  for (int t = 32; t <= k->max_threads; t += 32) {
    OcCfg d = c;
    d.threads = t;
    add(&g[OC_THREADS], t, oc_eval(m, d));
  }
  for (int r = 1; r <= m->max_regs_thread; r++) {
    OcCfg d = c;
    d.regs = r;
    add(&g[OC_REGS], r, oc_eval(m, d));
  }
  long unit = m->smem_unit > 0 ? m->smem_unit : 128;
  for (long s = 0; s <= g[OC_SMEM].xmax; s += unit) {
    OcCfg d = c;
    d.smem = (size_t)s;
    add(&g[OC_SMEM], s, oc_eval(m, d));
  }
}

void oc_free_graphs(OcCase *k) {
  for (int i = 0; i < OC_NGRAPH; i++) free(k->g[i].p);
}
