/* cucc-occupancy: NVIDIA's CUDA occupancy calculator on cucc's device
 * models, for numbers or for the kernels of a program.
 *
 *   cucc-occupancy --arch sm_75 --threads 256 --regs 32 --smem 4096
 *   cucc-occupancy app.cu --arch sm_90 [cucc options] [--threads 256]
 *
 * prints what the calculator prints (active threads, warps and blocks per
 * SM, occupancy, the limiting resource, each limit) and the headroom of
 * registers and shared memory before the next cliff; --plot draws its three
 * graphs, --csv gives their data as a table. Without --threads the block
 * size is cudaOccupancyMaxPotentialBlockSize's. The rules are the
 * runtime's (runtime/src/models.c), so the answers are those a program
 * built by cucc gets from the occupancy API and CUCC_REPORT. */
#include "occ.h"

static const char usage[] =
  "usage: cucc-occupancy [--arch sm_XX] --regs N [--threads N] [--smem BYTES] [options]\n"
  "       cucc-occupancy FILE.cu... [cucc options] [--threads N] [--dyn-smem BYTES] [options]\n"
  "\n"
  "The first form is NVIDIA's occupancy calculator for a block of N threads\n"
  "using N registers per thread and BYTES of shared memory (static and\n"
  "dynamic); the second compiles the program's .cu files with cucc (its\n"
  "options as for cucc: -arch=sm_90, -maxrregcount, -D, -I ...) and does the\n"
  "same for each kernel: registers from cucc's estimate, its static shared\n"
  "memory plus --dyn-smem, its __launch_bounds__. Without --threads the block\n"
  "size is the one cudaOccupancyMaxPotentialBlockSize chooses.\n"
  "\n"
  "options:\n"
  "  --arch SPEC       the device model: sm_XX (every compute capability cucc\n"
  "                    models, --list), with fields changed as CUCC_DEVICE\n"
  "                    changes them: sm_20:regsPerSM=16384 (default: sm_75, or\n"
  "                    the program's -arch). In the second form\n"
  "                    the program is compiled for it too (cucc -arch=sm_XX);\n"
  "                    --device SPEC (or CUCC_DEVICE) changes only the model.\n"
  "  --threads N       threads per block (also --block N)\n"
  "  --regs N          registers per thread\n"
  "  --smem BYTES      shared memory per block\n"
  "  --dyn-smem BYTES  dynamic shared memory per block (second form)\n"
  "  --kernel NAME     only the kernels whose name contains NAME\n"
  "  --plot FILE       the calculator's three graphs: FILE.svg, or FILE.png\n"
  "                    through rsvg-convert (Debian: librsvg2-bin) or ImageMagick\n"
  "  --csv             the graphs' data as a table on standard output (instead\n"
  "                    of the report); --csv=FILE: into FILE (and the report)\n"
  "  --list            the models: compute capability, GPU, limits\n";

static void die(const char *msg, const char *arg) {
  fprintf(stderr, "cucc-occupancy: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "(cucc-occupancy --help shows the options)\n");
  exit(2);
}

static long num(const char *opt, const char *v) {
  char *e;
  long n = strtol(v, &e, 0);
  if (!*v || *e || n < 0) die("not a number of", opt);
  return n;
}

/* --opt VALUE or --opt=VALUE */
static const char *val(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (strncmp(argv[*i], opt, n)) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n]) return NULL;
  if (*i + 1 >= argc) die("a value is missing after", opt);
  return argv[++*i];
}

/* sm_XX, compute_XX, XX or X.Y, then :field=value,... as CUCC_DEVICE. A
 * capability without a model takes the newest below it, as cucc -arch does. */
static const char *fields;   /* the :field=value part of the model's spec */

static void model(const char *spec, rt_model *out) {
  const char *p = spec, *ov = strchr(spec, ':');
  fields = ov && ov[1] ? ov + 1 : NULL;
  if (!strncmp(p, "sm_", 3)) p += 3;
  else if (!strncmp(p, "compute_", 8)) p += 8;
  char *e;
  long cc = strtol(p, &e, 10);
  if (*e == '.' && e[1] >= '0' && e[1] <= '9') cc = cc * 10 + (e[1] - '0'), e += 2;
  if (e == p || (*e && *e != ':' && *e != 'a' && *e != 'f')) die("not a compute capability", spec);
  const rt_model *m = NULL;
  for (int i = 0; i < rt_nmodels; i++)
    if (rt_models[i].sm <= cc) m = &rt_models[i];
  if (!m) die("no model of a compute capability that old", spec);
  if (m->sm != cc)
    fprintf(stderr, "cucc-occupancy: no model of sm_%ld: using sm_%d's (%s)\n", cc, m->sm, m->gpu);
  char buf[512];
  snprintf(buf, sizeof buf, "sm_%d%s", m->sm, ov ? ov : "");
  if (rt_model_parse(buf, m->sm, out)) die("bad device model", spec);
}

static void list(void) {
  printf("%-6s %-20s %4s %7s %6s %9s %8s %8s %9s %8s\n", "arch", "GPU", "SMs", "thr/blk", "thr/SM", "blocks/SM",
         "regs/SM", "max regs", "smem/SM", "smem/blk");
  for (int i = 0; i < rt_nmodels; i++) {
    const rt_model *m = &rt_models[i];
    printf("sm_%-3d %-20s %4d %7d %6d %9d %8d %8d %9d %8zu\n", m->sm, m->gpu, m->sms, m->threads_block,
           m->threads_sm, m->blocks_sm, m->regs_sm, m->max_regs_thread, m->smem_sm, oc_smem_limit(m));
  }
}

static double pct(int warps, int max) { return max ? 100.0 * warps / max : 0; }

/* ---- the text report ---- */

/* How a limit allocates one block's share (for the table only: the
 * blocks each limit allows are the runtime's rt_occupancy's). */
static long regs_alloc(const rt_model *m, OcCfg c) {
  int warps = (c.threads + 31) / 32;
  long unit = m->reg_unit > 0 ? m->reg_unit : 1;
  if (!m->reg_per_warp) {
    int gran = m->warp_gran > 0 ? m->warp_gran : 1;
    long r = (long)((warps + gran - 1) / gran * gran) * 32 * c.regs;
    return (r + unit - 1) / unit * unit;
  }
  return ((long)c.regs * 32 + unit - 1) / unit * unit * warps;
}

static long smem_alloc(const rt_model *m, OcCfg c) {
  long need = (long)c.smem + m->smem_reserved, unit = m->smem_unit > 0 ? m->smem_unit : 1;
  return need ? (need + unit - 1) / unit * unit : 0;
}

static const char *lim_name(const char *l) {
  if (!l) return "threads per block";
  if (!strcmp(l, "blocks")) return "thread blocks per SM";
  if (!strcmp(l, "warps")) return "warps (threads) per SM";
  if (!strcmp(l, "registers")) return "registers per SM";
  return "shared memory per SM";
}

/* every limit that allows no more than the blocks that fit is marked */
static void limit_row(const char *what, long per_block, long per_sm, int blocks, bool lim) {
  char b[32];
  if (blocks == INT_MAX) snprintf(b, sizeof b, "-");
  else snprintf(b, sizeof b, "%d", blocks);
  printf("    %-22s %12ld %12ld %12s%s\n", what, per_block, per_sm, b, lim ? "   <- limits" : "");
}

/* How far registers or shared memory may grow before fewer blocks fit,
 * and how far they must shrink for one more. */
static void headroom(const OcCase *k, int what) {
  const rt_model *m = k->m;
  OcCfg c = k->r.c;
  int B = k->r.o.blocks;
  long have = what == OC_REGS ? c.regs : (long)c.smem, top = what == OC_REGS ? m->max_regs_thread : (long)oc_smem_limit(m);
  const char *unit = what == OC_REGS ? "registers per thread" : "bytes of shared memory per block";
  long most = oc_most(m, c, what, B);
  printf("    %-22s ", what == OC_REGS ? "Registers per thread" : "Shared memory");
  if (most > have) {
    printf("+%ld: up to %ld %s keep %d block%s", most - have, most, unit, B, B == 1 ? "" : "s");
    if (most < top) {
      OcCfg d = c;
      if (what == OC_REGS) d.regs = (int)most + 1;
      else d.smem = (size_t)most + 1;
      OcRes r = oc_eval(m, d);
      printf("; %ld leave%s %d (%d warps, %.0f%%)", most + 1, what == OC_REGS ? "" : "s", r.o.blocks, r.warps,
             pct(r.warps, r.max_warps));
    } else printf(" (the most a %s may have)", what == OC_REGS ? "thread" : "block");
  } else if (have >= top) printf("none: %ld is the most a %s may have", top, what == OC_REGS ? "thread" : "block");
  else {
    OcCfg d = c;
    if (what == OC_REGS) d.regs++;
    else d.smem++;
    OcRes r = oc_eval(m, d);
    printf("none, at the cliff: one more leaves %d block%s (%d warps, %.0f%%)", r.o.blocks, r.o.blocks == 1 ? "" : "s",
           r.warps, pct(r.warps, r.max_warps));
  }
  printf("\n");
  long gain = oc_gain(m, c, what, B);
  if (gain >= 0 && gain < have) {
    OcCfg d = c;
    if (what == OC_REGS) d.regs = (int)gain;
    else d.smem = (size_t)gain;
    OcRes r = oc_eval(m, d);
    printf("    %-22s -%ld: %ld %s give %d blocks (%d warps, %.0f%%)\n", "", have - gain, gain, unit, r.o.blocks,
           r.warps, pct(r.warps, r.max_warps));
  }
}

static void report(const OcCase *k, const OcKern *kern, const char *chosen) {
  const rt_model *m = k->m;
  const OcRes *r = &k->r;
  const rt_occ *o = &r->o;
  if (kern) {
    printf("kernel %s", kern->name);
    if (kern->file) printf(" (%s:%d)", kern->file, kern->line);
    printf("\n");
  }
  printf("  %-34s sm_%d, %s (cucc's model: %d SMs%s%s)\n", "Device", m->sm, m->gpu, m->sms, k->fields ? "; " : "",
         k->fields ? k->fields : "");
  printf("  %-34s %d%s\n", "Threads per block", r->c.threads, chosen ? chosen : "");
  printf("  %-34s %d", "Registers per thread", r->c.regs);
  if (kern) {
    printf(" (cucc's estimate %d", kern->nregs);
    if (kern->max_threads) printf(", __launch_bounds__(%d)", kern->max_threads);
    printf(")");
  }
  printf("\n  %-34s %zu bytes", "Shared memory per block", r->c.smem);
  if (kern) printf(" (%zu static, %zu dynamic)", kern->smem_static, r->c.smem - kern->smem_static);
  printf("\n\n");
  if (k->max_threads < r->c.threads && kern && kern->max_threads) {
    printf("  A block of %d threads exceeds __launch_bounds__(%d): the launch fails (cudaErrorInvalidValue).\n\n",
           r->c.threads, kern->max_threads);
    return;
  }
  printf("  %-34s %d\n", "Active threads per SM", o->blocks * r->c.threads);
  printf("  %-34s %d\n", "Active warps per SM", r->warps);
  printf("  %-34s %d\n", "Active thread blocks per SM", o->blocks);
  printf("  %-34s %.0f%% (%d of %d warps)\n", "Occupancy of each SM", 100.0 * o->occupancy, r->warps,
         r->max_warps);
  bool fits = r->c.threads > 0 && r->c.threads <= m->threads_block;
  printf("  %-34s %s\n", "Limited by", lim_name(fits ? o->limiter : NULL));
  if (!o->blocks) {
    /* why not even one block fits */
    if (!fits)
      printf("  A block may have at most %d threads on this model.\n", m->threads_block);
    else if (r->c.regs > m->max_regs_thread)
      printf("  A thread may have at most %d registers on this model (the launch fails: "
             "cudaErrorLaunchOutOfResources).\n", m->max_regs_thread);
    else if (o->by_regs == 0)
      printf("  A block of %d threads fits the register file with at most %ld registers per thread "
             "(the launch fails: cudaErrorLaunchOutOfResources).\n",
             r->c.threads, oc_most(m, r->c, OC_REGS, 1));
    else if (o->by_smem == 0)
      printf("  A block may use at most %zu bytes of shared memory (the launch fails: cudaErrorInvalidValue).\n",
             oc_smem_limit(m));
    printf("\n");
    return;
  }
  printf("\n    %-22s %12s %12s %12s\n", "Limit", "per block", "per SM", "blocks/SM");
  limit_row("Thread blocks", 1, m->blocks_sm, o->by_blocks, o->by_blocks == o->blocks);
  limit_row("Warps", r->warps_block, m->threads_sm / 32, o->by_warps, o->by_warps == o->blocks);
  limit_row("Registers", regs_alloc(m, r->c), m->regs_sm, o->by_regs, o->by_regs == o->blocks);
  limit_row("Shared memory (bytes)", smem_alloc(m, r->c), m->smem_sm, o->by_smem, o->by_smem == o->blocks);
  printf("\n    Headroom before the next cliff (now %d block%s per SM):\n", o->blocks, o->blocks == 1 ? "" : "s");
  headroom(k, OC_REGS);
  headroom(k, OC_SMEM);
  printf("\n");
}

/* ---- the graphs' data as CSV ---- */
static void csv_quote(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_row(FILE *f, const OcCase *k, const char *graph, OcCfg c, int blocks, int warps, const char *lim,
                    int chosen) {
  csv_quote(f, k->title ? k->title : "");
  fprintf(f, ",sm_%d,%s,%d,%d,%zu,%d,%d,%.4f,%s,%d\n", k->m->sm, graph, c.threads, c.regs, c.smem, blocks, warps,
          (double)warps / (k->m->threads_sm / 32), blocks ? lim : "none", chosen);
}

static void csv(FILE *f, const OcCase *k) {
  static const char *names[] = {"threads", "registers", "smem"};
  const OcRes *r = &k->r;
  csv_row(f, k, "chosen", r->c, r->o.blocks, r->warps, r->o.limiter, 1);
  for (int g = 0; g < OC_NGRAPH; g++)
    for (int i = 0; i < k->g[g].n; i++) {
      const OcPt *p = &k->g[g].p[i];
      OcCfg c = r->c;
      if (g == OC_THREADS) c.threads = (int)p->x;
      else if (g == OC_REGS) c.regs = (int)p->x;
      else c.smem = (size_t)p->x;
      bool at = g == OC_THREADS ? c.threads == r->c.threads : g == OC_REGS ? c.regs == r->c.regs : c.smem == r->c.smem;
      csv_row(f, k, names[g], c, p->blocks, p->warps, p->lim, at);
    }
}

/* ---- main ---- */
int main(int argc, char **argv) {
  const char *arch = NULL, *device = NULL, *plot = NULL, *kname = NULL;
  long threads = -1, regs = -1, smem = -1, dyn = 0;
  bool want_csv = false;   /* the table instead of the report */
  const char *csv_file = NULL;   /* --csv=FILE: the table there, the report too */
  char **pass = calloc((size_t)argc + 1, sizeof *pass), **srcs = calloc((size_t)argc + 1, sizeof *srcs);
  int npass = 0, nsrcs = 0;
  const char *v;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    size_t l = strlen(a);
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--list")) {
      list();
      return 0;
    } else if ((v = val(argc, argv, &i, "--threads")) || (v = val(argc, argv, &i, "--block"))) threads = num(a, v);
    else if ((v = val(argc, argv, &i, "--regs"))) regs = num(a, v);
    else if ((v = val(argc, argv, &i, "--smem"))) smem = num(a, v);
    else if ((v = val(argc, argv, &i, "--dyn-smem"))) dyn = num(a, v);
    else if ((v = val(argc, argv, &i, "--kernel"))) kname = v;
    else if ((v = val(argc, argv, &i, "--plot"))) plot = v;
    else if ((v = val(argc, argv, &i, "--device"))) device = v;
    else if ((v = val(argc, argv, &i, "--arch"))) arch = v;
    else if (!strcmp(a, "--csv")) want_csv = true;
    else if (!strncmp(a, "--csv=", 6) && a[6]) csv_file = a + 6;
    else if (l > 3 && !strcmp(a + l - 3, ".cu") && a[0] != '-') srcs[nsrcs++] = argv[i];
    else pass[npass++] = argv[i];
  }
  OcCase *cs = NULL;
  OcKern *ks = NULL;
  int ncs = 0, nks = 0;
  rt_model m;
  if (!nsrcs) {
    /* the calculator: numbers */
    for (int i = 0; i < npass; i++) {
      if ((v = val(npass, pass, &i, "-arch"))) arch = v;
      else die("unknown option (or a program's .cu file is missing)", pass[i]);
    }
    if (regs < 0) die("--regs N (registers per thread) is needed", NULL);
    if (threads == 0) die("--threads must be at least 1", NULL);
    model(device ? device : arch ? arch : "sm_75", &m);
    OcCase k = {.m = &m, .fields = fields, .max_threads = m.threads_block};
    OcCfg c = {(int)threads, (int)regs, smem < 0 ? 0 : (size_t)smem};
    int grid = 0, block = (int)threads;
    if (threads < 0) rt_potential(&m, c.regs, c.smem, NULL, NULL, 0, 0, &grid, &block);
    c.threads = block;
    k.r = oc_eval(&m, c);
    cs = calloc(1, sizeof *cs);
    cs[ncs++] = k;
    if (!want_csv) {
      char note[128] = "";
      if (threads < 0)
        snprintf(note, sizeof note, " (cudaOccupancyMaxPotentialBlockSize's choice; its grid: %d blocks)", grid);
      report(&cs[0], NULL, note);
    }
  } else {
    /* the kernels of a program */
    if (regs >= 0 || smem >= 0) die("--regs and --smem are for the calculator: a program's kernels have their own "
                                    "(--dyn-smem adds dynamic shared memory)", NULL);
    /* --arch SPEC: cucc's -arch=sm_XX, and the model (with its fields) */
    char archopt[64];
    if (arch) {
      snprintf(archopt, sizeof archopt, "-arch=%.*s", (int)strcspn(arch, ":"), arch);
      pass[npass++] = archopt;
    }
    int carch = 0;
    if (oc_kernels(argv[0], pass, npass, srcs, nsrcs, &ks, &nks, &carch)) return 1;
    const char *env = getenv("CUCC_DEVICE");
    if (device || arch) model(device ? device : arch, &m);
    else if (rt_model_parse(env, carch ? carch : 75, &m)) return 2;
    else if (env && strchr(env, ':')) fields = strchr(env, ':') + 1;
    cs = calloc((size_t)nks + 1, sizeof *cs);
    for (int i = 0; i < nks; i++) {
      OcKern *kn = &ks[i];
      if (kname && !strstr(kn->name, kname)) continue;
      cu_kernel ck = {0};
      ck.nregs = kn->nregs;
      ck.max_threads = kn->max_threads;
      int maxb = kn->max_threads && kn->max_threads < m.threads_block ? kn->max_threads : m.threads_block;
      OcCase k = {.m = &m, .title = kn->name, .fields = fields, .max_threads = maxb};
      OcCfg c = {(int)threads, rt_kernel_regs(&ck, &m), kn->smem_static + (size_t)dyn};
      int grid = 0, block = (int)threads;
      if (threads < 0) rt_potential(&m, c.regs, kn->smem_static, NULL, NULL, (size_t)dyn, maxb, &grid, &block);
      c.threads = block;
      k.r = oc_eval(&m, c);
      if (block > maxb) k.r.o = (rt_occ){0}, k.r.warps = 0;
      cs[ncs] = k;
      if (!want_csv) {
        char note[128] = "";
        if (threads < 0)
          snprintf(note, sizeof note, " (cudaOccupancyMaxPotentialBlockSize's choice; its grid: %d blocks)", grid);
        report(&cs[ncs], kn, note);
      }
      ncs++;
    }
    if (!ncs) {
      fprintf(stderr, "cucc-occupancy: %s\n", nks ? "no kernel's name contains that (--kernel)" : "no kernels in the program");
      return 1;
    }
  }
  int rc = 0;
  for (int i = 0; i < ncs; i++) oc_graphs(&cs[i]);
  FILE *f = want_csv ? stdout : csv_file ? fopen(csv_file, "w") : NULL;
  if (csv_file && !want_csv && !f) {
    fprintf(stderr, "cucc-occupancy: cannot write %s\n", csv_file);
    rc = 1;
  }
  if (f) {
    fprintf(f, "kernel,arch,graph,threads,registers,smem,blocks_per_sm,warps_per_sm,occupancy,limited_by,chosen\n");
    for (int i = 0; i < ncs; i++) csv(f, &cs[i]);
    if (f != stdout && fclose(f)) {
      fprintf(stderr, "cucc-occupancy: cannot write %s\n", csv_file);
      rc = 1;
    }
  }
  if (plot && !rc) rc = oc_plot(plot, cs, ncs);
  for (int i = 0; i < ncs; i++) oc_free_graphs(&cs[i]);
  free(cs);
  free(pass);
  free(srcs);
  return rc;
}
