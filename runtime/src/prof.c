/* prof.c: CUCC_PROFILE, a comma-separated list, read before main:
 *  - 1: nvprof's divergence metrics for every kernel, printed at exit.
 *    Counting happens in the general version of each region (under it
 *    every region takes that version, see cu_rt_mode), into the kernel's
 *    cu_prof; launch.c adds time and occupancy per launch.
 *  - summary: `nsys profile --stats`'s tables at exit (stderr): kernels,
 *    runtime API calls, memory operations by time and by size. Regions
 *    keep their fast versions, so the times are those of a normal run.
 *  - csv=FILE: the same tables as one CSV file.
 * Times are wall times on this machine: a kernel's from the first of its
 * blocks to the last, a copy's the copy itself, an API call's from entry
 * to return. */
#include "rt.h"
#include <time.h>

unsigned cu_rt_mode;

/* ---- CUCC_PROFILE=1: divergence ---- */
typedef struct Kp { const cu_kernel *k; unsigned long launches; double ms, occ; } Kp;
static Kp kps[256];
static int nkps, on;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;   /* devices' grids end at once */

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

bool rt_prof_on(void) { return on; }

void rt_prof_note(const cu_kernel *k, double ms, double occupancy) {
  pthread_mutex_lock(&mu);
  int i = 0;
  while (i < nkps && kps[i].k != k) i++;
  if (i == nkps && nkps < 256) {
    if (!nkps) atexit(print);
    kps[nkps++] = (Kp){k, 0, 0, 0};
  }
  if (i < nkps) {
    kps[i].launches++;
    kps[i].ms += ms;
    kps[i].occ += occupancy;
  }
  pthread_mutex_unlock(&mu);
}

/* ---- summary: counts, totals, extremes and spread kept exactly; for the
 * median every sample up to KEEP per row, then a uniform sample of KEEP
 * (reservoir sampling: a program calling cudaGetLastError 10^8 times
 * must not keep 800 MB) ---- */
int rt_prof_sum;
static bool sum_print;
static char *csv_path;

enum { KEEP = 1 << 22 };
typedef struct Run { long long n, total, min, max; double mean, m2; } Run;   /* Welford's */
typedef struct Row {
  const char *name;             /* kernel's pretty name, API function, operation */
  const void *key;
  Run t, b;                     /* time; bytes for memory operations */
  long long *ns, *bytes;        /* the samples kept */
  size_t kept, cap;
  unsigned long long rng;
} Row;
typedef struct Table { Row *rows; int n; bool bytes; } Table;
static Table kern, api, ops = {NULL, 0, true};
static pthread_mutex_t sum_mu = PTHREAD_MUTEX_INITIALIZER;

static const char *op_names[RT_NOPS] = {"[CUDA memcpy Host-to-Host]", "[CUDA memcpy Host-to-Device]",
                                        "[CUDA memcpy Device-to-Host]", "[CUDA memcpy Device-to-Device]",
                                        "[CUDA memset]"};

long long rt_prof_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* the row of key in t (sum_mu held); NULL if memory ran out */
static Row *row(Table *t, const void *key, const char *name) {
  for (int i = 0; i < t->n; i++)
    if (t->rows[i].key == key) return &t->rows[i];
  Row *nr = realloc(t->rows, (t->n + 1) * sizeof *nr);
  if (!nr) return NULL;
  t->rows = nr;
  nr[t->n] = (Row){.name = name, .key = key, .rng = 0x9e3779b97f4a7c15ULL};
  return &nr[t->n++];
}

static void run_add(Run *r, long long v) {
  if (!r->n || v < r->min) r->min = v;
  if (!r->n || v > r->max) r->max = v;
  r->n++;
  r->total += v;
  double d = (double)v - r->mean;
  r->mean += d / (double)r->n;
  r->m2 += d * ((double)v - r->mean);
}

static void add(Table *t, const void *key, const char *name, long long ns, long long bytes) {
  pthread_mutex_lock(&sum_mu);
  Row *r = row(t, key, name);
  if (r) {
    run_add(&r->t, ns);
    if (t->bytes) run_add(&r->b, bytes);
    size_t at = r->kept;
    if (r->kept == KEEP) {   /* keep this one with probability KEEP / n */
      r->rng ^= r->rng << 13, r->rng ^= r->rng >> 7, r->rng ^= r->rng << 17;
      at = (size_t)(r->rng % (unsigned long long)r->t.n);
    } else if (r->kept == r->cap) {
      size_t cap = r->cap ? r->cap * 2 : 16;
      long long *a = realloc(r->ns, cap * sizeof *a);
      if (a) r->ns = a;
      long long *b = a && t->bytes ? realloc(r->bytes, cap * sizeof *b) : NULL;
      if (b) r->bytes = b;
      if (a && (b || !t->bytes)) r->cap = cap;
    }
    if (at < r->kept || (at == r->kept && at < r->cap)) {
      r->ns[at] = ns;
      if (t->bytes) r->bytes[at] = bytes;
      if (at == r->kept) r->kept++;
    }
  }
  pthread_mutex_unlock(&sum_mu);
}

void rt_prof_kernel(const cu_kernel *k, long long ns) { add(&kern, k, k->pretty, ns, 0); }
void rt_prof_memop(int op, size_t bytes, long long ns) { add(&ops, op_names[op], op_names[op], ns, (long long)bytes); }

static _Thread_local int api_depth;

rt_api rt_api_enter(const char *name) {
  return (rt_api){api_depth++ ? NULL : name, rt_prof_now() | 1};
}

void rt_api_leave(rt_api *a) {
  api_depth--;
  if (a->name) add(&api, a->name, a->name, rt_prof_now() - a->t0, 0);
}

/* ---- the tables ---- */
typedef struct Stat { long long n, total, min, max; double avg, med, sd; } Stat;

/* (no libm: programs linked by other build systems need not link it) */
static double root(double x) {
  double r = x > 1 ? x : 1;
  if (x <= 0) return 0;
  for (int i = 0; i < 2000; i++) {   /* Newton's, falling from above */
    double n = (r + x / r) / 2;
    if (n >= r) break;
    r = n;
  }
  return r;
}

static int cmp_ll(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return (x > y) - (x < y);
}

/* the median of what was kept (sorts v) */
static Stat stat(const Run *r, long long *v, size_t kept) {
  Stat s = {r->n, r->total, r->min, r->max, 0, 0, 0};
  if (!r->n) return s;
  s.avg = (double)r->total / (double)r->n;
  s.sd = r->n > 1 ? root(r->m2 / (double)(r->n - 1)) : 0;   /* the sample's, as nsys */
  if (kept) {
    qsort(v, kept, sizeof *v, cmp_ll);
    s.med = kept % 2 ? (double)v[kept / 2] : ((double)v[kept / 2 - 1] + (double)v[kept / 2]) / 2;
  }
  return s;
}

/* rows by total time, largest first */
static Stat *stats(Table *t, Stat **bytes, long long *all) {
  Stat *s = calloc((size_t)t->n + 1, sizeof *s), *b = bytes ? calloc((size_t)t->n + 1, sizeof *b) : NULL;
  *all = 0;
  for (int i = 0; i < t->n; i++) {
    Row *r = &t->rows[i];
    s[i] = stat(&r->t, r->ns, r->kept);
    if (b) b[i] = stat(&r->b, r->bytes, r->kept);
    *all += s[i].total;
  }
  for (int i = 1; i < t->n; i++)   /* insertion sort, rows, stats and bytes together */
    for (int j = i; j > 0 && s[j].total > s[j - 1].total; j--) {
      Row r = t->rows[j];
      t->rows[j] = t->rows[j - 1];
      t->rows[j - 1] = r;
      Stat x = s[j];
      s[j] = s[j - 1];
      s[j - 1] = x;
      if (b) x = b[j], b[j] = b[j - 1], b[j - 1] = x;
    }
  if (bytes) *bytes = b;
  return s;
}

static double share(long long x, long long all) { return all ? 100.0 * (double)x / (double)all : 0; }

/* A table as nsys prints it: columns as wide as their widest cell,
 * numbers to the right, the name (the last column) to the left. */
enum { NCOL = 9, CELL = 32 };
typedef struct Grid { int ncol, nrow; char (*cell)[NCOL][CELL]; const char **names; } Grid;

static void grid_print(FILE *f, const char *title, const char *const *head, Grid *g) {
  size_t w[NCOL + 1] = {0};
  for (int c = 0; c <= g->ncol; c++) w[c] = strlen(head[c]);
  for (int r = 0; r < g->nrow; r++) {
    for (int c = 0; c < g->ncol; c++)
      if (strlen(g->cell[r][c]) > w[c]) w[c] = strlen(g->cell[r][c]);
    if (strlen(g->names[r]) > w[g->ncol]) w[g->ncol] = strlen(g->names[r]);
  }
  fprintf(f, "\n ** %s:\n\n", title);
  if (!g->nrow) {
    fprintf(f, " (none)\n");
    return;
  }
  for (int c = 0; c <= g->ncol; c++) fprintf(f, " %*s%s", c < g->ncol ? (int)w[c] : 0, head[c], c < g->ncol ? " " : "\n");
  for (int c = 0; c <= g->ncol; c++) {
    fputc(' ', f);
    for (size_t i = 0; i < (c < g->ncol ? w[c] : strlen(head[c])); i++) fputc('-', f);
    fputs(c < g->ncol ? " " : "\n", f);
  }
  for (int r = 0; r < g->nrow; r++)
    for (int c = 0; c <= g->ncol; c++)
      fprintf(f, " %*s%s", c < g->ncol ? (int)w[c] : 0, c < g->ncol ? g->cell[r][c] : g->names[r],
              c < g->ncol ? " " : "\n");
}

static Grid grid_new(Table *t, int ncol) {
  Grid g = {ncol, t->n, calloc((size_t)t->n + 1, sizeof *g.cell), calloc((size_t)t->n + 1, sizeof *g.names)};
  for (int i = 0; i < t->n; i++) g.names[i] = t->rows[i].name;
  return g;
}

static void grid_free(Grid *g) {
  free(g->cell);
  free(g->names);
}

/* time per row: cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum */
static void table(FILE *f, const char *title, const char *count, const char *what, Table *t) {
  const char *head[] = {"Time (%)", "Total Time (ns)", count, "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
                        "StdDev (ns)", what};
  long long all;
  Stat *s = stats(t, NULL, &all);
  Grid g = grid_new(t, 8);
  for (int i = 0; i < t->n; i++) {
    char(*c)[CELL] = g.cell[i];
    snprintf(c[0], CELL, "%.1f", share(s[i].total, all));
    snprintf(c[1], CELL, "%lld", s[i].total);
    snprintf(c[2], CELL, "%lld", s[i].n);
    snprintf(c[3], CELL, "%.1f", s[i].avg);
    snprintf(c[4], CELL, "%.1f", s[i].med);
    snprintf(c[5], CELL, "%lld", s[i].min);
    snprintf(c[6], CELL, "%lld", s[i].max);
    snprintf(c[7], CELL, "%.1f", s[i].sd);
  }
  grid_print(f, title, head, &g);
  grid_free(&g);
  free(s);
}

/* bytes per operation: cuda_gpu_mem_size_sum */
static void size_table(FILE *f) {
  const char *head[] = {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)", "StdDev (MB)",
                        "Operation"};
  long long all;
  Stat *b = NULL, *s = stats(&ops, &b, &all);
  Grid g = grid_new(&ops, 7);
  for (int i = 0; i < ops.n; i++) {
    char(*c)[CELL] = g.cell[i];
    snprintf(c[0], CELL, "%.3f", b[i].total / 1e6);
    snprintf(c[1], CELL, "%lld", b[i].n);
    snprintf(c[2], CELL, "%.3f", b[i].avg / 1e6);
    snprintf(c[3], CELL, "%.3f", b[i].med / 1e6);
    snprintf(c[4], CELL, "%.3f", b[i].min / 1e6);
    snprintf(c[5], CELL, "%.3f", b[i].max / 1e6);
    snprintf(c[6], CELL, "%.3f", b[i].sd / 1e6);
  }
  grid_print(f, "CUDA GPU MemOps Summary (by Size) (cuda_gpu_mem_size_sum)", head, &g);
  grid_free(&g);
  free(s);
  free(b);
}

static void csv_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_rows(FILE *f, const char *table, Table *t, bool with_bytes) {
  long long all;
  Stat *b = NULL, *s = stats(t, with_bytes ? &b : NULL, &all);
  for (int i = 0; i < t->n; i++) {
    fprintf(f, "%s,", table);
    csv_name(f, t->rows[i].name);
    fprintf(f, ",%lld,%lld,%.1f,%.1f,%lld,%lld,%.1f,%.1f", s[i].n, s[i].total, s[i].avg, s[i].med, s[i].min, s[i].max,
            s[i].sd, share(s[i].total, all));
    if (b) fprintf(f, ",%lld,%.1f,%.1f,%lld,%lld\n", b[i].total, b[i].avg, b[i].med, b[i].min, b[i].max);
    else fprintf(f, ",,,,,\n");
  }
  free(s);
  free(b);
}

static void summary(void) {
  pthread_mutex_lock(&sum_mu);
  if (sum_print) {
    fprintf(stderr, "\ncucc: profile summary (CUCC_PROFILE=summary; %s model; times are this CPU's)\n",
            rt_model_cur()->gpu);
    table(stderr, "CUDA API Summary (cuda_api_sum)", "Num Calls", "Name", &api);
    table(stderr, "CUDA GPU Kernel Summary (cuda_gpu_kern_sum)", "Instances", "Name", &kern);
    table(stderr, "CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum)", "Count", "Operation", &ops);
    size_table(stderr);
    fprintf(stderr, "\n");
  }
  if (csv_path) {
    FILE *f = fopen(csv_path, "w");
    if (!f) fprintf(stderr, "cucc: CUCC_PROFILE: cannot write %s\n", csv_path);
    else {
      fprintf(f, "table,name,count,total_ns,avg_ns,med_ns,min_ns,max_ns,stddev_ns,time_pct,"
                 "total_bytes,avg_bytes,med_bytes,min_bytes,max_bytes\n");
      csv_rows(f, "kernel", &kern, false);
      csv_rows(f, "api", &api, false);
      csv_rows(f, "memop", &ops, true);
      if (fclose(f)) fprintf(stderr, "cucc: CUCC_PROFILE: cannot write %s\n", csv_path);
    }
  }
  pthread_mutex_unlock(&sum_mu);
}

/* Before main and before C++ constructors, which may call the API too. */
__attribute__((constructor(101))) static void prof_init(void) {
  const char *e = getenv("CUCC_PROFILE");
  if (!e || !*e) return;
  char *s = strdup(e), *save = NULL;
  for (char *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (!strcmp(t, "0")) continue;
    if (!strcmp(t, "summary")) sum_print = true;
    else if (!strncmp(t, "csv=", 4) && t[4]) {
      free(csv_path);
      csv_path = strdup(t + 4);
    } else {
      /* 1, and any other word as before summary existed: the metrics */
      if (strcmp(t, "1") && strcmp(t, "divergence"))
        fprintf(stderr, "cucc: CUCC_PROFILE: '%s' taken as 1 (the divergence metrics; the others: summary, "
                        "csv=FILE)\n", t);
      on = 1;
    }
  }
  free(s);
  if (sum_print || csv_path) {
    rt_prof_sum = 1;
    atexit(summary);
  }
}
