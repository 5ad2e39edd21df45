/* models.c: the GPUs cucc can model, one per compute capability, and the
 * occupancy calculation on them.
 *
 * Sources: the CUDA C Programming Guide's table of technical
 * specifications per compute capability (threads, blocks, warps, registers,
 * shared memory), the allocation granularities of NVIDIA's occupancy
 * calculator (cuda_occupancy.h for 3.0 and later, the spreadsheet for 1.x and
 * 2.x), and the lecture notes' examples (8800 GTX, RTX 2070 deviceQuery).
 * The H100 line matches what a real H100 reports (tests/data). */
#include "rt.h"
#include <limits.h>

/* (mem: MiB of device memory; 0: the device's share of the host's) */
const rt_model rt_models[] = {
  /* sm  gpu                      SMs thr/blk thr/SM blk/SM cores smem/SM smem/blk optin  rsv  regs/SM regs/blk unit gran maxr sunit wgran subp bx   by   bz  gx          gy     gz    mem */
  {10, "GeForce 8800 GTX",         16, 512,  768,  8,   8,   16384,  16384,  16384,  0,    8192,  8192,  256, 0, 124, 512, 2, 1, 512,  512,  64, 65535,      65535, 1, 0},
  {11, "GeForce 9800 GT",          14, 512,  768,  8,   8,   16384,  16384,  16384,  0,    8192,  8192,  256, 0, 124, 512, 2, 1, 512,  512,  64, 65535,      65535, 1, 0},
  {12, "GeForce GT 240",           12, 512,  1024, 8,   8,   16384,  16384,  16384,  0,    16384, 16384, 512, 0, 124, 512, 2, 1, 512,  512,  64, 65535,      65535, 1, 0},
  {13, "GeForce GTX 280",          30, 512,  1024, 8,   8,   16384,  16384,  16384,  0,    16384, 16384, 512, 0, 124, 512, 2, 1, 512,  512,  64, 65535,      65535, 1, 0},
  {20, "GeForce GTX 480",          15, 1024, 1536, 8,   32,  49152,  49152,  49152,  0,    32768, 32768, 64,  1, 63,  128, 2, 1, 1024, 1024, 64, 65535,      65535, 65535, 0},
  {21, "GeForce GTX 460",          7,  1024, 1536, 8,   48,  49152,  49152,  49152,  0,    32768, 32768, 64,  1, 63,  128, 2, 1, 1024, 1024, 64, 65535,      65535, 65535, 0},
  {30, "GeForce GTX 680",          8,  1024, 2048, 16,  192, 49152,  49152,  49152,  0,    65536, 65536, 256, 1, 63,  256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {35, "GeForce GTX TITAN",        14, 1024, 2048, 16,  192, 49152,  49152,  49152,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {37, "Tesla K80",                13, 1024, 2048, 16,  192, 114688, 49152,  49152,  0,    131072,65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {50, "GeForce GTX 750 Ti",       5,  1024, 2048, 32,  128, 65536,  49152,  49152,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {52, "GeForce GTX 980",          16, 1024, 2048, 32,  128, 98304,  49152,  49152,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {53, "Jetson TX1",               2,  1024, 2048, 32,  128, 65536,  49152,  49152,  0,    65536, 32768, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {60, "Tesla P100",               56, 1024, 2048, 32,  64,  65536,  49152,  49152,  0,    65536, 65536, 256, 1, 255, 256, 4, 2, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {61, "GeForce GTX 1080",         20, 1024, 2048, 32,  128, 98304,  49152,  49152,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {70, "Tesla V100",               80, 1024, 2048, 32,  64,  98304,  49152,  98304,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {75, "GeForce RTX 2070",         36, 1024, 1024, 16,  64,  65536,  49152,  65536,  0,    65536, 65536, 256, 1, 255, 256, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {80, "A100-SXM4-40GB",           108,1024, 2048, 32,  64,  167936, 49152,  166912, 1024, 65536, 65536, 256, 1, 255, 128, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {86, "GeForce RTX 3080",         68, 1024, 1536, 16,  128, 102400, 49152,  101376, 1024, 65536, 65536, 256, 1, 255, 128, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {89, "GeForce RTX 4090",         128,1024, 1536, 24,  128, 102400, 49152,  101376, 1024, 65536, 65536, 256, 1, 255, 128, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
  {90, "H100 80GB HBM3",           132,1024, 2048, 32,  128, 233472, 49152,  232448, 1024, 65536, 65536, 256, 1, 255, 128, 4, 4, 1024, 1024, 64, 2147483647, 65535, 65535, 0},
};
const int rt_nmodels = sizeof rt_models / sizeof *rt_models;

const rt_model *rt_model_find(int sm) {
  for (int i = 0; i < rt_nmodels; i++)
    if (rt_models[i].sm == sm) return &rt_models[i];
  return NULL;
}

/* The -arch the program was compiled for: the default model of every
 * device that CUCC_DEVICE does not name (sm_75, the notes' RTX 2070, if
 * none). */
static int compiled_sm;

void cu_set_arch(int sm) {
  if (!compiled_sm) compiled_sm = sm;
}

int rt_model_default(void) { return compiled_sm ? compiled_sm : 75; }

static struct { const char *name; size_t off; } fields[] = {
#define F(n) {#n, offsetof(rt_model, n)}
  F(sms), F(threads_block), F(threads_sm), F(blocks_sm), F(cores_sm), F(smem_sm), F(smem_block),
  F(smem_optin), F(smem_reserved), F(regs_sm), F(regs_block), F(reg_unit), F(reg_per_warp),
  F(max_regs_thread), F(smem_unit), F(warp_gran), F(subparts), F(mem),
#undef F
  {"regsPerSM", offsetof(rt_model, regs_sm)}, {"smemPerSM", offsetof(rt_model, smem_sm)},
  {"threadsPerSM", offsetof(rt_model, threads_sm)}, {"blocksPerSM", offsetof(rt_model, blocks_sm)},
};

/* sm_XX[:field=value,...] over the model of sm_XX (or of dflt if spec is
 * NULL). Returns 0, or -1 after saying what is wrong. */
int rt_model_parse(const char *env, int dflt, rt_model *out) {
  int sm = dflt, rc = 0;
  const char *ov = NULL;
  if (env && *env) {
    const char *d = strpbrk(env, "0123456789");
    if (!strncmp(env, "sm_", 3) && d) sm = atoi(d);
    else {
      fprintf(stderr, "cucc: CUCC_DEVICE='%s' is not of the form sm_XX[:field=value,...]\n", env);
      rc = -1;
    }
    ov = strchr(env, ':');
  }
  const rt_model *m = rt_model_find(sm);
  if (!m) {
    fprintf(stderr, "cucc: no model of sm_%d; using sm_75 (models: sm_10 .. sm_90)\n", sm);
    m = rt_model_find(75);
    rc = -1;
  }
  rt_model cur = *m;
  for (const char *p = ov ? ov + 1 : NULL; p && *p;) {
    const char *eq = strchr(p, '='), *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    bool ok = false;
    if (eq && eq < end)
      for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        if (strlen(fields[i].name) == (size_t)(eq - p) && !strncmp(p, fields[i].name, eq - p)) {
          *(int *)((char *)&cur + fields[i].off) = atoi(eq + 1);
          ok = true;
        }
    if (!ok) {
      fprintf(stderr, "cucc: CUCC_DEVICE: unknown field in '%.*s'\n", (int)(end - p), p);
      rc = -1;
    }
    p = *end ? end + 1 : end;
  }
  *out = cur;
  return rc;
}

const rt_model *rt_model_cur(void) { return &rt_cur()->model; }

/* ---- occupancy: NVIDIA's rules, limit by limit ---- */

static int div_up(int a, int b) { return (a + b - 1) / b; }
static int round_up(int a, int b) { return div_up(a, b) * b; }

/* Blocks of `threads` threads using `regs` registers per thread and `smem`
 * bytes of shared memory (static + dynamic) that one SM holds at once. */
int rt_occupancy(const rt_model *m, int threads, int regs, size_t smem, rt_occ *o) {
  rt_occ r = {0};
  int warps = div_up(threads, 32);
  if (threads <= 0 || threads > m->threads_block) {
    if (o) *o = r;
    return 0;
  }
  r.by_blocks = m->blocks_sm;
  r.by_warps = (m->threads_sm / 32) / warps;
  /* registers */
  if (regs <= 0) r.by_regs = INT_MAX;
  else if (regs > m->max_regs_thread) r.by_regs = 0;
  else if (!m->reg_per_warp) {
    /* 1.x: registers allocated per block, warps in pairs */
    int per_block = round_up(round_up(warps, m->warp_gran) * 32 * regs, m->reg_unit);
    r.by_regs = per_block > m->regs_block ? 0 : m->regs_sm / per_block;
  } else {
    int per_warp = round_up(regs * 32, m->reg_unit);
    int sub = m->subparts > 0 ? m->subparts : 1;
    if (per_warp * round_up(warps, sub) > m->regs_block && m->sm >= 30) r.by_regs = 0;
    else if (per_warp * warps > m->regs_block) r.by_regs = 0;
    else if (m->sm >= 30) {
      int wsub = (m->regs_sm / sub) / per_warp;
      r.by_regs = wsub * sub / warps;
    } else {
      int w = (m->regs_sm / per_warp) / m->warp_gran * m->warp_gran;
      r.by_regs = w / warps;
    }
  }
  /* shared memory */
  size_t need = smem + (size_t)m->smem_reserved;
  size_t alloc = need ? (size_t)round_up((int)need, m->smem_unit) : 0;
  size_t limit_block = (size_t)(m->smem_optin > m->smem_block ? m->smem_optin : m->smem_block) +
                       (size_t)m->smem_reserved;
  if (alloc > limit_block) r.by_smem = 0;
  else r.by_smem = alloc ? (int)(m->smem_sm / alloc) : INT_MAX;
  int b = r.by_blocks;
  r.limiter = "blocks";
  if (r.by_warps < b) { b = r.by_warps; r.limiter = "warps"; }
  if (r.by_regs < b) { b = r.by_regs; r.limiter = "registers"; }
  if (r.by_smem < b) { b = r.by_smem; r.limiter = "shared memory"; }
  r.blocks = b;
  r.occupancy = (double)(b * warps) / (m->threads_sm / 32);
  if (o) *o = r;
  return b;
}

/* cudaOccupancyMaxPotentialBlockSize's search: the block size (a multiple
 * of the warp size, largest first) with the most resident threads, and the
 * grid that fills every SM with it. */
void rt_potential(const rt_model *m, int regs, size_t smem_static, size_t (*smem_of)(int, void *), void *cl,
                  size_t dyn, int maxb, int *grid, int *block) {
  if (maxb <= 0 || maxb > m->threads_block) maxb = m->threads_block;
  int best = 0, best_bs = 0;
  for (int bs = (maxb + 31) / 32 * 32; bs > 0; bs -= 32) {
    int b = bs > maxb ? maxb : bs;
    size_t sm = smem_of ? smem_of(b, cl) : dyn;
    int n = rt_occupancy(m, b, regs, smem_static + sm, NULL);
    if (n * b > best) {
      best = n * b;
      best_bs = b;
    }
  }
  *block = best_bs;
  *grid = best_bs ? (best / best_bs) * m->sms : 0;
}
