/* main.c: the cucc command. nvcc's options (opts.c); each .cu is translated
 * by the frontend into a device C unit and a host C++ unit, which the
 * system C and C++ compilers build (compile.c); everything links with
 * libcucc_rt. */
#include "cucc.h"
#include "drv.h"
#include "cucc_config.h"
#include <sys/stat.h>
#include <unistd.h>

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* cucc's headers and runtime, found from the executable: the build tree
 * (build/cucc, build/include/cucc, build/lib) or an install prefix
 * (bin/cucc, include/cucc, lib). lib/cucc is the same seen as a CUDA
 * toolkit's folder by build systems (include/, lib/libcudart.a ...). */
static void find_home(Drv *d) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) { fprintf(stderr, "cucc: error: cannot find my own executable\n"); exit(1); }
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  *slash = 0;
  const char *cands[][2] = {{"%s/include/cucc", "%s/lib"}, {"%s/../include/cucc", "%s/../lib"}};
  for (size_t i = 0; i < 2; i++) {
    char *ip = realpath(xfmt(cands[i][0], exe), NULL), *lp = realpath(xfmt(cands[i][1], exe), NULL);
    if (ip && lp && exists(xfmt("%s/cuda_runtime.h", ip)) && exists(xfmt("%s/libcucc_rt.a", lp))) {
      d->incdir = ip;
      d->libdir = lp;
      d->top = xfmt("%s/cucc", lp);
      return;
    }
  }
  fprintf(stderr, "cucc: error: cannot find cucc's headers and runtime next to %s\n", exe);
  exit(1);
}

/* -v: first what nvcc's -v shows of its installation, which build
 * systems read (CMake: TOP, NVVMIR_LIBRARY_DIR, INCLUDES, LIBRARIES and
 * the link line that holds LIBRARIES' value): here cucc's folders. */
static void print_env(Drv *d, const char *linkdir) {
  fprintf(stderr, "#$ _CUCC_=cucc %s (not NVIDIA's nvcc; these lines follow nvcc -v's for build systems)\n",
          CUCC_VERSION);
  fprintf(stderr, "#$ TOP=%s\n", d->top);
  fprintf(stderr, "#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n", d->top);
  fprintf(stderr, "#$ INCLUDES=%s\n", drv_quote(xfmt("-I%s", d->incdir)));
  fprintf(stderr, "#$ LIBRARIES=%s\n", drv_quote(xfmt("-L%s", linkdir)));
  /* the device code's compute capability, in nvcc's words */
  fprintf(stderr, "cucc: device code models sm_%d (-arch compute_%d)\n", d->o.arch, d->o.arch);
}

static bool has_prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Which of the host compiler's options the parse must see too: the
 * preprocessor's, the language's and the target's (so -fopenmp defines
 * _OPENMP and -mavx2 lets host intrinsics parse), never warnings. */
static void parse_flags(Drv *d, Tools *t, bool has_cu) {
  Vec *pf = &d->o.parse_flags;
  static const char *const pairs[] = {"-isystem", "-idirafter", "-include", "-iquote", "-imacros"};
  static const char *const one[] = {"-D", "-U", "-I", "-std=", "-march=", "-mcpu=", "-mavx", "-msse", "-mfma",
                                    "-mf16c", "-mbmi", "-mpopcnt", "-mlzcnt", "-maes", "-mpclmul", "-msha",
                                    "-fno-exceptions", "-fexceptions", "-fno-rtti", "-frtti", "-fopenmp",
                                    "-fsigned-char", "-funsigned-char", "-isystem", "-idirafter", "-iquote"};
  for (int i = 0; i < d->hflags.n; i++) {
    const char *f = d->hflags.v[i];
    bool pair = false;
    for (size_t k = 0; k < sizeof pairs / sizeof *pairs; k++) pair |= !strcmp(f, pairs[k]);
    if (pair && i + 1 < d->hflags.n) {
      vec_push(pf, (void *)f);
      vec_push(pf, d->hflags.v[++i]);
      continue;
    }
    for (size_t k = 0; k < sizeof one / sizeof *one; k++)
      if (has_prefix(f, one[k])) {
        vec_push(pf, (void *)f);
        break;
      }
  }
  /* <omp.h>: libclang's own header folder has none on Debian (without
   * libomp-19-dev), the host compiler's has, with or without -fopenmp;
   * after every other folder, so only what clang lacks comes from there.
   * gcc's declares allocators with __attribute__((__malloc__ (omp_free))),
   * a form clang refuses: in the parse (which only reads host code) that
   * attribute is dropped. */
  if (has_cu) {
    drv_wrapper_flags(t, pf);   /* mpicxx's <mpi.h> */
    const char *gi = drv_gcc_include(t);
    if (gi) {
      vec_push(pf, "-idirafter");
      vec_push(pf, (void *)gi);
      vec_push(pf, "-D__malloc__(...)=");
    }
  }
  if (d->o.rdc) vec_push(pf, "-D__CUDACC_RDC__");
}

/* The flags of the device C compile that come from options. */
static void device_flags(Drv *d, Tools *t) {
  const char *cpu = drv_cpu_flag(t, d->cpu);
  if (cpu) vec_push(&d->dflags, (void *)cpu);
  if (d->fast_math) {
    /* nvcc's fast math approximates and reassociates, but still knows
     * NaN and infinity (isnan stays meaningful) */
    vec_push(&d->dflags, "-ffast-math");
    vec_push(&d->dflags, "-fno-finite-math-only");
    vec_push(&d->o.macros, "-D__USE_FAST_MATH__");
  }
  if (d->no_fmad) vec_push(&d->dflags, "-ffp-contract=off");
  if (d->approx_div) vec_push(&d->dflags, "-freciprocal-math");
  if (d->stack_protect) vec_push(&d->dflags, "-fstack-protector-strong");
}

/* The files the command would make: what --clean-targets removes. */
static void clean(Drv *d, Tools *t) {
  Vec outs = {0};
  if (d->mode == M_COMPILE) {
    for (int i = 0; i < d->ins.n; i++) {
      In *in = d->ins.v[i];
      if (in->kind == K_OBJ) continue;
      vec_push(&outs, d->out ? (char *)d->out : xfmt("%s%s%s.o", d->odir ? d->odir : "", d->odir ? "/" : "", drv_stem(in->path)));
      if (d->deps) vec_push(&outs, drv_depfile(d, in));
    }
  } else {
    const char *def = d->mode == M_LIB ? "a.a" : d->mode == M_DLINK ? "a_dlink.o" : "a.out";
    vec_push(&outs, d->out ? (char *)d->out : (char *)def);
  }
  for (int i = 0; i < outs.n; i++) {
    if (t->verbose || t->dryrun) fprintf(stderr, "#$ rm %s\n", drv_quote(outs.v[i]));
    if (!t->dryrun) drv_unlink_output(outs.v[i]);
  }
}

int main(int argc, char **argv) {
  Drv dv = {0}, *d = &dv;
  drv_parse_args(d, argc, argv);
  find_home(d);
  d->o.incdir = d->incdir;

  Tools t = {0};
  t.verbose = d->o.verbose;
  t.dryrun = d->dryrun;
  drv_compilers(&t, d->ccbin);
  drv_wrapped(&t);
  /* the target matters to parsing and to linking, not to plain .c/.cpp */
  bool need_target = d->mode != M_COMPILE || t.verbose || t.dryrun;
  for (int i = 0; i < d->ins.n; i++) need_target |= ((In *)d->ins.v[i])->kind == K_CU;
  if (need_target) drv_target(&t);
  d->o.target = t.triple;
  /* cucc's runtime (and libcudart.a & co., which are it) for the
   * target: lib/cucc/lib, or a cross target's lib/<triple> */
  const char *linkdir = t.libsub ? xfmt("%s/%s", d->libdir, t.libsub) : xfmt("%s/lib", d->top);
  if (t.verbose || t.dryrun) print_env(d, linkdir);

  if (!d->ins.n) {
    fprintf(stderr, "cucc: error: no input files\n(run 'cucc --help' for the options)\n");
    return 1;
  }
  int nsrc = 0;
  for (int i = 0; i < d->ins.n; i++) {
    In *in = d->ins.v[i];
    if (!exists(in->path)) {
      fprintf(stderr, "cucc: error: %s: No such file or directory\n", in->path);
      return 1;
    }
    nsrc += in->kind != K_OBJ;
  }
  bool per_input = d->mode == M_COMPILE || d->mode == M_PREPROC || d->mode == M_DEPS;
  if (per_input && d->out && nsrc > 1) {
    fprintf(stderr, "cucc: error: -o names one output, but %d inputs were given (with -c, -E or -M)\n", nsrc);
    return 1;
  }
  if (d->deps && (d->mf || d->out) && nsrc > 1) {
    fprintf(stderr, "cucc: error: a dependency file named by -MF or -o is one file, but %d inputs were given\n", nsrc);
    return 1;
  }
  /* a program for another machine links with the runtime built for it:
   * say so before compiling anything if there is none */
  bool links = d->mode == M_LINK || d->mode == M_RUN;
  if (t.libsub && links && !exists(xfmt("%s/libcucc_rt.a", linkdir))) {
    fprintf(stderr, "cucc: error: %s builds for %s, but cucc has no runtime for it (%s/libcucc_rt.a)\n"
            "(README.md, Hosts: how to build one)\n", t.cxx, t.triple, linkdir);
    return 1;
  }
  if (!t.libsub && !exists(xfmt("%s/libcucc_rt.a", linkdir))) {
    fprintf(stderr, "cucc: error: cucc's runtime is missing from %s\n", linkdir);
    return 1;
  }
  if (d->clean) {
    clean(d, &t);
    return 0;
  }
  drv_init_cleanup();

  /* a shared library's objects must be position-independent */
  if (d->shared) vec_push(&d->hflags, "-fPIC");
  device_flags(d, &t);
  bool has_cu = false;
  for (int i = 0; i < d->ins.n; i++) has_cu |= ((In *)d->ins.v[i])->kind == K_CU;
  parse_flags(d, &t, has_cu && d->mode != M_PREPROC && d->mode != M_DEPS);
  d->o.xc = d->hflags;

  int rc = 0;
  if (d->mode == M_PREPROC || d->mode == M_DEPS) {
    for (int i = 0; i < d->ins.n && !rc; i++) {
      In *in = d->ins.v[i];
      if (in->kind == K_OBJ) continue;
      if (d->mode == M_PREPROC) rc = drv_preprocess(d, &t, in, d->out);
      else rc = drv_deps(d, &t, in, NULL, d->mf ? d->mf : d->out);
    }
    return rc ? 1 : 0;
  }

  Vec objs = {0};
  for (int i = 0; i < d->ins.n && !rc; i++) {
    In *in = d->ins.v[i];
    if (in->kind == K_OBJ) {
      if (d->mode != M_COMPILE) vec_push(&objs, (void *)in->path);
      continue;
    }
    const char *target = NULL;   /* the object's name as a dependency target */
    char *obj;
    if (d->mode == M_COMPILE) {
      target = d->out ? d->out : xfmt("%s.o", drv_stem(in->path));
      obj = d->out ? (char *)d->out : d->odir ? xfmt("%s/%s", d->odir, target) : (char *)target;
    } else obj = drv_temp(".o", false);
    if (d->deps) rc = drv_deps(d, &t, in, target, drv_depfile(d, in));
    if (!rc) rc = drv_compile(d, &t, in, obj);
    if (rc && d->mode == M_COMPILE) drv_fail_output(obj);
    vec_push(&objs, obj);
  }
  const char *out = d->out;
  if (!rc) switch (d->mode) {
    case M_LIB: rc = drv_lib(d, &t, &objs, out = out ? out : "a.a"); break;
    case M_DLINK: rc = drv_dlink(d, &t, out = out ? out : "a_dlink.o"); break;
    case M_RLINK: rc = drv_rlink(d, &t, &objs, out = out ? out : "a.o"); break;
    case M_LINK: case M_RUN: rc = drv_link(d, &t, &objs, out = out ? out : "a.out", linkdir); break;
    default: break;
    }
  if (rc) {
    if (d->mode != M_COMPILE && d->mode != M_SYNTAX) drv_fail_output(out);
    return 1;
  }
  if (drv_write_times(d->time_file)) return 1;
  if (d->mode == M_RUN) {
    Vec a = {0};
    vec_push(&a, strchr(out, '/') ? (char *)out : xfmt("./%s", out));
    for (int i = 0; i < d->run_args.n; i++) vec_push(&a, d->run_args.v[i]);
    return drv_run(&t, &a) ? 1 : 0;
  }
  return 0;
}
