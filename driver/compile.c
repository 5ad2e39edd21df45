/* compile.c: the phases after the options: each input to an object, then
 * a program, a shared or static library, a relocatable object or the
 * device-link object. Every tool runs from an argument vector. */
#define _GNU_SOURCE   /* sched_getaffinity */
#include "drv.h"
#include "cucc_config.h"
#include <errno.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

/* --time: the phases' times, as CSV rows */
static Buf times;

void drv_time(const char *phase, const char *file, double secs) {
  buf_printf(&times, "%s,%s,%.3f\n", phase, file, secs * 1000);
}

int drv_write_times(const char *path) {
  if (!path || !times.s) return 0;
  const char *head = "phase,file,milliseconds\n";
  if (!strcmp(path, "-")) {
    fputs(head, stdout);
    fputs(times.s, stdout);
    return 0;
  }
  struct stat st;
  bool fresh = stat(path, &st) != 0 || st.st_size == 0;
  FILE *f = fopen(path, "a");
  if (!f) {
    fprintf(stderr, "cucc: error: cannot write %s: %s\n", path, strerror(errno));
    return 1;
  }
  if (fresh) fputs(head, f);
  fputs(times.s, f);
  fclose(f);
  return 0;
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

char *drv_stem(const char *p) {
  const char *b = base(p), *e = strrchr(b, '.');
  return e ? xstrndup(b, e - b) : xstrdup(b);
}

/* The host C++ compile's flags: -O (default 2), -g, -w, then the user's
 * -Xcompiler options and those forwarded to the host compiler */
static void host_flags(Drv *d, Vec *a) {
  vec_push(a, xfmt("-O%d", d->o.opt < 0 ? 2 : d->o.opt));
  if (d->host_debug) vec_push(a, "-g");
  if (d->nowarn) vec_push(a, "-w");
  for (int i = 0; i < d->hflags.n; i++) vec_push(a, d->hflags.v[i]);
}

/* a .c or .cpp input */
static int compile_src(Drv *d, Tools *t, In *in, const char *obj) {
  Vec a = {0};
  vec_push(&a, (void *)(in->kind == K_C ? t->cc : t->cxx));
  host_flags(d, &a);
  for (int i = 0; i < d->o.incs.n; i++) vec_push(&a, xfmt("-I%s", (char *)d->o.incs.v[i]));
  /* as nvcc does: plain C and C++ sources may include the CUDA headers */
  vec_push(&a, xfmt("-I%s", d->incdir));
  for (int i = 0; i < d->o.macros.n; i++) vec_push(&a, d->o.macros.v[i]);
  if (d->lang >= 0) {
    vec_push(&a, "-x");
    vec_push(&a, in->kind == K_C ? "c" : "c++");
  }
  vec_push(&a, "-c");
  vec_push(&a, (void *)in->path);
  vec_push(&a, "-o");
  vec_push(&a, (void *)obj);
  double t0 = drv_now();
  int rc = drv_run(t, &a);
  drv_time("host compile", in->path, drv_now() - t0);
  return rc;
}

/* Where --keep leaves the generated files of `in`: --keep-dir's folder,
 * else next to the output */
static const char *keep_base(Drv *d, In *in) {
  if (!d->o.keep) return NULL;
  if (d->keep_dir) {
    mkdir(d->keep_dir, 0777);   /* (nvcc makes it too; an error shows at the write) */
    return xfmt("%s/%s", d->keep_dir, drv_stem(in->path));
  }
  const char *o = d->out ? d->out : d->mode == M_COMPILE ? drv_stem(in->path) : "a.out";
  return xfmt("%s.%s", o, drv_stem(in->path));
}

/* Device C is one unit of every kernel in every version, for every
 * template instantiation: a sample's templated reductions make 7 MB of it,
 * minutes of one cc1. GCC splits its optimization into jobs through LTO
 * (-flto then an optimizing partial link, -flinker-output=nolto-rel: the
 * object is plain again), as nvcc's --split-compile N does ptxas's; by
 * default where the device C is large (the split costs a little), into at
 * most 8 jobs on the CPUs this process may use. 1: one job. */
static int dev_jobs(Drv *d, Tools *t, size_t bytes) {
  if (d->split == 1 || (d->split < 0 && bytes < 96 * 1024) || d->dev_debug) return 1;
  int n = d->split;
  if (n <= 0) {
    cpu_set_t cs;
    n = sched_getaffinity(0, sizeof cs, &cs) ? 1 : CPU_COUNT(&cs);
    if (d->split < 0 && n > 8) n = 8;
  }
  if (n <= 1) return 1;
  /* GCC's LTO (a path to its lto-wrapper); clang answers the bare name */
  static int gcc = -1;
  if (gcc < 0) {
    Vec q = {0};
    vec_push(&q, (void *)t->cc);
    vec_push(&q, "-print-prog-name=lto-wrapper");
    Tools quiet = *t;
    quiet.verbose = false;
    char *w = t->dryrun ? NULL : drv_capture(&quiet, &q);
    gcc = w && w[0] == '/' && access(w, X_OK) == 0;
  }
  return gcc ? n : 1;
}

/* is the host C++ compiler clang (the first line of its --version says
 * "clang version", Debian's, LLVM's and Apple's alike) */
static bool host_clang(Tools *t) {
  static int clang = -1;
  if (clang < 0) {
    Vec q = {0};
    vec_push(&q, (void *)t->cxx);
    vec_push(&q, "--version");
    Tools quiet = *t;
    quiet.verbose = false;
    char *m = t->dryrun ? NULL : drv_capture_quiet(&quiet, &q);
    clang = m && strstr(m, "clang version");
  }
  return clang;
}

/* A clang host compile reads the headers whose device functions hold
 * inline PTX it would refuse (CUB's; frontend/hostasm.c) through a VFS
 * overlay that maps each to a copy with that PTX blank. The overlay: a
 * YAML file naming each header by its real path. */
static void host_overlay(Drv *d, Tools *t, Vec *h) {
  if (!fe_hostasm.n || !host_clang(t) || d->dryrun) return;
  /* one entry per folder: of two entries that name one folder, clang
   * looks in the first only */
  Buf y = {0};
  buf_puts(&y, "{ 'version': 0, 'case-sensitive': 'true', 'roots': [");
  bool *done = xcalloc(fe_hostasm.n, sizeof *done);
  for (int i = 0; i < fe_hostasm.n; i++) {
    if (done[i]) continue;
    HostAsm *a = fe_hostasm.v[i];
    int dl = (int)(strrchr(a->path, '/') - a->path);
    buf_printf(&y, "%s\n  { 'type': 'directory', 'name': '%.*s', 'contents': [", i ? "," : "", dl, a->path);
    for (int j = i, first = 1; j < fe_hostasm.n; j++) {
      HostAsm *b = fe_hostasm.v[j];
      if (done[j] || strncmp(b->path, a->path, dl + 1) || strchr(b->path + dl + 1, '/')) continue;
      done[j] = true;
      char *copy = drv_temp(".h", false);
      if (drv_write_file(copy, b->text)) return;
      buf_printf(&y, "%s\n    { 'type': 'file', 'name': '%s', 'external-contents': '%s' }", first ? "" : ",",
                 b->path + dl + 1, copy);
      first = 0;
    }
    buf_puts(&y, " ] }");
  }
  buf_puts(&y, "\n] }\n");
  char *yf = drv_temp(".yaml", false);
  if (drv_write_file(yf, y.s)) return;
  vec_push(h, "-ivfsoverlay");
  vec_push(h, yf);
}

/* .cu -> device C + host C++ -> two objects -> one relocatable object */
static int compile_cu(Drv *d, Tools *t, In *in, const char *obj) {
  const CuOpts *o = &d->o;
  const char *path = in->path;
  const char *keepbase = keep_base(d, in);
  Buf dev = {0}, host = {0};
  if (d->dryrun) fprintf(stderr, "cucc: libclang parse and lowering of %s\n", path);
  else if (fe_translate(path, o, &dev, &host)) return 1;
  if (d->mode == M_SYNTAX) return 0;
  char *devc = keepbase ? xfmt("%s.dev.c", keepbase) : drv_temp(".dev.c", false);
  char *hostc = keepbase ? xfmt("%s.host.cpp", keepbase) : drv_temp(".host.cpp", false);
  if (!d->dryrun && (drv_write_file(devc, dev.s ? dev.s : "") || drv_write_file(hostc, host.s ? host.s : "")))
    return 1;
  char *devo = drv_temp(".dev.o", false), *hosto = drv_temp(".host.o", false);

  Vec a = {0};
  vec_push(&a, (void *)t->cc);
  vec_push(&a, "-std=gnu11");
  /* nvcc's -O and -g are the host code's; device code is optimized
   * unless -G (or ptxas's -O, or -Ofc, says otherwise) */
  int dopt = d->dev_opt >= 0 ? d->dev_opt : d->dev_debug ? 0 : 3;
  if (d->dev_debug && d->dev_opt < 0) dopt = 0;
  vec_push(&a, xfmt("-O%d", dopt));
  if (d->dev_debug) vec_push(&a, "-g");
  /* CUDA code may type-pun through pointers: no strict aliasing */
  vec_push(&a, "-fno-strict-aliasing");
  /* a __host__ __device__ function keeps its calls to the C library's math,
   * GNU ones (exp10f, sincosf) included: C declares them only with this,
   * and clang, unlike gcc, gives an undeclared one an int result */
  vec_push(&a, "-D_GNU_SOURCE");
  /* GPU arithmetic never traps and device math never sets errno: with
   * these the C compiler may compute both arms of a select (lane blends,
   * if-converted masked lane loops) and inline sqrtf and friends */
  vec_push(&a, "-fno-trapping-math");
  vec_push(&a, "-fno-math-errno");
  vec_push(&a, "-fPIC");
  /* the user's source was diagnosed by libclang; warnings about the
   * generated C (clang's extra parentheses) would only be noise. The
   * test suite sets CUCC_DEVICE_WERROR: there the C compiler's default
   * warnings about our C (incompatible pointers, int conversions,
   * undeclared functions) are errors, an emitter's bug failing CI rather
   * than showing a user a warning or a wrong program */
  const char *we = getenv("CUCC_DEVICE_WERROR");
  if (we && *we && strcmp(we, "0")) {
    vec_push(&a, "-Werror");
    vec_push(&a, "-Wno-parentheses-equality");   /* (clang: `((x == y))`) */
    vec_push(&a, "-Wno-pass-failed");   /* (clang: a lane loop it could not vectorize) */
    vec_push(&a, "-Wno-unknown-warning-option");
  } else vec_push(&a, "-w");
  /* --cpu, --use_fast_math, -fmad=false ... */
  for (int i = 0; i < d->dflags.n; i++) vec_push(&a, d->dflags.v[i]);
  /* -Xcompiler options (e.g. -march=native, -fopenmp) reach device C too:
   * it is built by the host's C compiler */
  for (int i = 0; i < d->hflags.n; i++) vec_push(&a, d->hflags.v[i]);
  vec_push(&a, xfmt("-I%s", d->incdir));
  int jobs = dev_jobs(d, t, dev.len);
  char *ltoo = jobs > 1 ? drv_temp(".lto.o", false) : NULL;
  Vec l = {0};
  if (ltoo) {   /* the same flags again for the optimizing partial link */
    for (int i = 0; i < a.n; i++) vec_push(&l, a.v[i]);
    vec_push(&l, xfmt("-flto=%d", jobs));
    vec_push(&l, "-flto-partition=balanced");
    vec_push(&l, "-r");
    vec_push(&l, "-nostdlib");
    vec_push(&l, "-flinker-output=nolto-rel");
    vec_push(&l, ltoo);
    vec_push(&l, "-o");
    vec_push(&l, devo);
    vec_push(&a, "-flto");
  }
  vec_push(&a, "-c");
  vec_push(&a, devc);
  vec_push(&a, "-o");
  vec_push(&a, ltoo ? ltoo : devo);
  double t0 = drv_now();
  long dpid = drv_spawn(t, &a, NULL);   /* the host compile runs meanwhile */
  if (dpid < 0) return 1;

  Vec h = {0};
  vec_push(&h, (void *)t->cxx);
  vec_push(&h, xfmt("-std=%s", o->std));
  host_flags(d, &h);
  /* Thrust's device algorithms run on its OpenMP system (our
   * thrust/detail/config/compiler.h), which needs OpenMP: a .cu that
   * includes Thrust is compiled with it, as the parse read it */
  if (fe_thrust && !drv_user_openmp(d) && drv_openmp(t)) vec_push(&h, "-fopenmp");
  /* CUB's __device__ functions are in system headers, which the host unit
   * keeps as they are (host.c blanks only the user's): the host compiler
   * parses their bodies, and never emits them; GCC refuses some of CUB's
   * class templates (a member typedef named as the template it names:
   * "changes meaning", a permerror even in a system header) */
  if (fe_cub) {
    vec_push(&h, "-D__CUCC_HOST_DEVDECLS__");
    vec_push(&h, "-fpermissive");
  }
  host_overlay(d, t, &h);
  vec_push(&h, "-D__CUDACC__");
  vec_push(&h, "-D__NVCC__");
  vec_push(&h, "-D__CUCC__");
  vec_push(&h, "-D__CUCC_HOST__");
  if (o->rdc) vec_push(&h, "-D__CUDACC_RDC__");
  vec_push(&h, xfmt("-I%s", d->incdir));
  for (int i = 0; i < o->incs.n; i++) vec_push(&h, xfmt("-I%s", (char *)o->incs.v[i]));
  for (int i = 0; i < o->macros.n; i++) vec_push(&h, o->macros.v[i]);
  /* the source's own folder, for its "..." includes: searched first, as
   * for the source itself (the host unit lies elsewhere), so that a header
   * next to it wins over one of the same name in a -I folder */
  const char *sl = strrchr(path, '/');
  vec_push(&h, "-iquote");
  vec_push(&h, sl ? xfmt("%.*s", (int)(sl - path), path) : ".");
  vec_push(&h, "-include");
  vec_push(&h, "cuda_runtime.h");
  vec_push(&h, "-x");
  vec_push(&h, "c++");
  vec_push(&h, "-c");
  vec_push(&h, hostc);
  vec_push(&h, "-o");
  vec_push(&h, hosto);
  long hpid = drv_spawn(t, &h, NULL);
  int bad = drv_wait(dpid, &a);
  bad |= !bad && ltoo && drv_run(t, &l);
  double t1 = drv_now();
  bad |= drv_wait(hpid, &h);
  if (bad) return 1;
  double t2 = drv_now();
  if (o->verbose) fprintf(stderr, "cucc: %s: device C compile %.3f s, host compile %.3f s\n", path, t1 - t0, t2 - t1);
  drv_time("device compile", path, t1 - t0);
  drv_time("host compile", path, t2 - t1);

  /* one relocatable object, linked by the host compiler's own driver (not
   * `ld`, which is the build machine's linker and rejects a cross target's
   * objects); -nostdlib: no start files or libraries in a partial link */
  Vec r = {0};
  vec_push(&r, (void *)t->rcxx);
  vec_push(&r, "-r");
  vec_push(&r, "-nostdlib");
  vec_push(&r, devo);
  vec_push(&r, hosto);
  vec_push(&r, "-o");
  vec_push(&r, (void *)obj);
  return drv_run(t, &r);
}

int drv_compile(Drv *d, Tools *t, In *in, const char *obj) {
  if (in->kind == K_CU) {
    double t0 = drv_now();
    int rc = compile_cu(d, t, in, obj);
    drv_time("compile", in->path, drv_now() - t0);
    return rc;
  }
  return d->mode == M_SYNTAX ? 0 : compile_src(d, t, in, obj);
}

/* The program (or -shared library): the objects, the user's libraries,
 * then cucc's runtime, after them so that their references to it resolve;
 * cucc's folder first, so that -lcudart and -lcuda are cucc's runtime even
 * where a CUDA toolkit's folder is named with -L. */
int drv_link(Drv *d, Tools *t, Vec *objs, const char *out, const char *linkdir) {
  Vec a = {0};
  vec_push(&a, (void *)t->cxx);
  if (d->shared) vec_push(&a, "-shared");
  /* as nvcc: -Xcompiler options reach the link (-fopenmp, -pthread) */
  for (int i = 0; i < d->hflags.n; i++) vec_push(&a, d->hflags.v[i]);
  for (int i = 0; i < objs->n; i++) vec_push(&a, objs->v[i]);
  vec_push(&a, xfmt("-L%s", linkdir));
  for (int i = 0; i < d->lflags.n; i++) vec_push(&a, d->lflags.v[i]);
  if (strcmp(d->cudart, "none")) vec_push(&a, "-lcucc_rt");
  vec_push(&a, "-lpthread");
  vec_push(&a, "-lm");
  /* 16-byte __nv_atomic_* by value (and clang's generic atomics): loaded
   * only where a program calls it */
  vec_push(&a, "-Wl,--push-state,--as-needed");
  vec_push(&a, "-latomic");
  vec_push(&a, "-Wl,--pop-state");
  /* (what this machine's runtime was built with, e.g. the sanitizers) */
  if (*CUCC_RT_LINK_FLAGS && !t->libsub) vec_push(&a, CUCC_RT_LINK_FLAGS);
  /* the OpenMP runtime, for objects of .cu files that include Thrust
   * (compile_cu), wherever they were compiled; --as-needed: a program
   * without OpenMP does not load it */
  if (!drv_user_openmp(d) && drv_openmp(t)) {
    vec_push(&a, "-Wl,--as-needed");
    vec_push(&a, "-fopenmp");
  }
  vec_push(&a, "-o");
  vec_push(&a, (void *)out);
  double t0 = drv_now();
  int rc = drv_run(t, &a);
  if (d->o.verbose) fprintf(stderr, "cucc: link %.3f s\n", drv_now() - t0);
  drv_time("link", out, drv_now() - t0);
  return rc;
}

/* -lib: a static library of the objects (replaced, not appended to: the
 * objects' names are temporary ones, so a member would never be replaced) */
int drv_lib(Drv *d, Tools *t, Vec *objs, const char *out) {
  Vec a = {0};
  const char *ar = d->arbin ? d->arbin : t->triple ? xfmt("%s-ar", t->triple) : "ar";
  vec_push(&a, (void *)ar);
  vec_push(&a, "rcs");
  for (int i = 0; i < d->aflags.n; i++) vec_push(&a, d->aflags.v[i]);
  vec_push(&a, (void *)out);
  for (int i = 0; i < objs->n; i++) vec_push(&a, objs->v[i]);
  if (!d->dryrun) drv_unlink_output(out);
  return drv_run(t, &a);
}

/* -r: one relocatable object of all the inputs */
int drv_rlink(Drv *d, Tools *t, Vec *objs, const char *out) {
  (void)d;
  Vec a = {0};
  vec_push(&a, (void *)t->rcxx);
  vec_push(&a, "-r");
  vec_push(&a, "-nostdlib");
  for (int i = 0; i < objs->n; i++) vec_push(&a, objs->v[i]);
  vec_push(&a, "-o");
  vec_push(&a, (void *)out);
  return drv_run(t, &a);
}

/* -dlink: nvcc links the objects' device code into one more object for
 * the host link. cucc's device code is host code already, in each object,
 * and an extern __device__ function or variable resolves at the host link:
 * the device-link object has nothing to hold, and is an empty object. */
int drv_dlink(Drv *d, Tools *t, const char *out) {
  (void)d;
  Vec a = {0};
  vec_push(&a, (void *)t->cc);
  vec_push(&a, "-c");
  vec_push(&a, "-x");
  vec_push(&a, "c");
  vec_push(&a, "/dev/null");
  vec_push(&a, "-o");
  vec_push(&a, (void *)out);
  return drv_run(t, &a);
}
