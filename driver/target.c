/* target.c: the host compilers and the machine they build for.
 *
 * -ccbin (or $CXX) names the C++ compiler; the C compiler that builds device
 * C and .c inputs must build for the same machine, so it is found next to
 * it. A compiler for another machine (aarch64-linux-gnu-g++ on x86-64) makes
 * this a cross build: libclang then parses for that machine (its type sizes,
 * char signedness and name mangling are the ones the host compilers use) and
 * the program links with the runtime built for it, lib/<triple>/. */
#include "drv.h"
#include "cucc_config.h"
#include <sys/stat.h>

/* The C compiler that goes with a C++ compiler: same folder, prefix and
 * suffix (aarch64-linux-gnu-g++ -> aarch64-linux-gnu-gcc, clang++-14 ->
 * clang-14, /usr/bin/c++ -> /usr/bin/cc); "cc" if the name says nothing. */
static const char *c_sibling(const char *cxx) {
  /* (MPI's wrappers: mpicxx and mpic++ go with mpicc, mpiCC too) */
  static const char *pairs[][2] = {{"clang++", "clang"}, {"g++", "gcc"}, {"c++", "cc"}, {"mpicxx", "mpicc"},
                                   {"mpiCC", "mpicc"}};
  const char *base = strrchr(cxx, '/') ? strrchr(cxx, '/') + 1 : cxx;
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    const char *hit = NULL;
    for (const char *p = base; (p = strstr(p, pairs[i][0])); p++) hit = p;
    if (hit)
      return xfmt("%.*s%s%s", (int)(hit - cxx), cxx, pairs[i][1], hit + strlen(pairs[i][0]));
  }
  return "cc";
}

/* nvcc's rules: -ccbin names the C++ compiler (or its folder, where g++ is
 * used) and the C compiler is its sibling; without it $CXX and $CC, each
 * defaulting to the system's c++ and cc (or $CXX's sibling). */
void drv_compilers(Tools *t, const char *ccbin) {
  const char *env_cc = getenv("CC"), *env_cxx = getenv("CXX");
  struct stat st;
  if (ccbin) {
    t->cxx = stat(ccbin, &st) == 0 && S_ISDIR(st.st_mode) ? xfmt("%s/g++", ccbin) : ccbin;
    t->cc = c_sibling(t->cxx);
  } else {
    t->cxx = env_cxx && *env_cxx ? env_cxx : "c++";
    t->cc = env_cc && *env_cc ? env_cc : env_cxx && *env_cxx ? c_sibling(env_cxx) : "cc";
  }
}

/* x86_64-pc-linux-gnu (clang) and x86_64-linux-gnu (gcc) are one machine:
 * a four-part triple loses its vendor. */
static char *norm_triple(const char *s) {
  const char *d1 = strchr(s, '-'), *d2 = d1 ? strchr(d1 + 1, '-') : NULL;
  const char *d3 = d2 ? strchr(d2 + 1, '-') : NULL;
  if (d3) return xfmt("%.*s%s", (int)(d1 - s), s, d2);
  return xstrdup(s);
}

void drv_target(Tools *t) {
  static bool done;
  if (done) return;
  done = true;
  Vec a = {0};
  vec_push(&a, (void *)t->cxx);
  vec_push(&a, "-dumpmachine");
  char *m = drv_capture(t, &a);
  /* a compiler that cannot say (or is missing: its compile will say so)
   * is taken to build for this machine */
  if (!m || !*m || !strcmp(norm_triple(m), norm_triple(CUCC_NATIVE_TRIPLE))) return;
  t->triple = m;
  t->libsub = norm_triple(m);
}

/* --cpu: the instruction set device C is built for. By default this
 * machine's (-march=native: a kernel's lane loops get the widest vectors
 * the CPU has); a cross build keeps its target's baseline, as does
 * --cpu=portable (a program that must run on other machines); any other
 * value is a -march value of the host C compiler. NULL: no flag. */
const char *drv_cpu_flag(Tools *t, const char *cpu) {
  if (!cpu) cpu = t->triple ? "portable" : "native";
  if (!strcmp(cpu, "portable")) return NULL;
  return xfmt("-march=%s", cpu);
}

/* An MPI compiler wrapper (mpicxx, mpic++, mpiCC, mpicxx.openmpi ...)
 * adds its headers' folders to every compile, which the libclang parse
 * must see too (<mpi.h>): Open MPI's wrapper says them with
 * --showme:compile, MPICH's with -compile_info. Their -I, -isystem, -D and
 * -U go to `pf`; a compiler whose name does not start with "mpi" is not
 * asked. */
static bool is_wrapper(const char *cxx) {
  const char *base = strrchr(cxx, '/') ? strrchr(cxx, '/') + 1 : cxx;
  return !strncmp(base, "mpi", 3);
}

void drv_wrapper_flags(Tools *t, Vec *pf) {
  if (!is_wrapper(t->cxx)) return;
  static const char *const asks[] = {"--showme:compile", "-compile_info"};
  char *line = NULL;
  for (size_t i = 0; i < sizeof asks / sizeof *asks && !line; i++) {
    Vec a = {0};
    vec_push(&a, (void *)t->cxx);
    vec_push(&a, (void *)asks[i]);
    line = drv_capture_quiet(t, &a);
  }
  bool pair = false;
  for (char *tok = line ? strtok(line, " \t") : NULL; tok; tok = strtok(NULL, " \t")) {
    if (pair || !strcmp(tok, "-isystem") || !strcmp(tok, "-idirafter")) {
      vec_push(pf, xstrdup(tok));
      pair = !pair;
    } else if (!strncmp(tok, "-I", 2) || !strncmp(tok, "-D", 2) || !strncmp(tok, "-U", 2))
      vec_push(pf, xstrdup(tok));
  }
}

/* A partial link (-r) of an object must not take libraries, which an MPI
 * wrapper adds to any command without -c: it runs the wrapper's own
 * compiler (Open MPI's --showme:command, MPICH's -show's first word). */
void drv_wrapped(Tools *t) {
  t->rcxx = t->cxx;
  if (!is_wrapper(t->cxx)) return;
  static const char *const asks[] = {"--showme:command", "-show"};
  for (size_t i = 0; i < sizeof asks / sizeof *asks; i++) {
    Vec a = {0};
    vec_push(&a, (void *)t->cxx);
    vec_push(&a, (void *)asks[i]);
    char *line = drv_capture_quiet(t, &a), *w = line ? strtok(line, " \t") : NULL;
    if (w) {
      t->rcxx = xstrdup(w);
      return;
    }
  }
}

/* The host C compiler's own header folder (gcc's has omp.h, which
 * libclang's resource folder lacks on Debian); NULL if it cannot say. */
const char *drv_gcc_include(Tools *t) {
  static bool asked;
  static char *d;
  if (asked) return d;
  asked = true;
  Vec a = {0};
  vec_push(&a, (void *)t->cc);
  vec_push(&a, "-print-file-name=include");
  d = drv_capture(t, &a);
  struct stat st;
  if (!(d && d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode))) d = NULL;
  return d;
}

/* Whether the host compilers have OpenMP: their omp.h is there (gcc's
 * always is; clang's comes with its OpenMP runtime, libomp-dev). */
bool drv_openmp(Tools *t) {
  const char *d = drv_gcc_include(t);
  struct stat st;
  return d && stat(xfmt("%s/omp.h", d), &st) == 0;
}

/* Whether the user's host compiler options say -fopenmp (or -fno-openmp)
 * already: then cucc adds neither. */
bool drv_user_openmp(Drv *d) {
  for (int i = 0; i < d->hflags.n; i++) {
    const char *f = d->hflags.v[i];
    if (!strncmp(f, "-fopenmp", 8) || !strcmp(f, "-fno-openmp")) return true;
  }
  return false;
}
