/* main.c: the cucc command. nvcc-like options; each .cu is translated by
 * the frontend into a device C unit and a host C++ unit, which the system C
 * and C++ compilers build; everything links with libcucc_rt. */
#include "cucc.h"
#include "drv.h"
#include "cucc_config.h"
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
  "usage: cucc [options] file... [-o output]\n"
  "Compiles CUDA programs (.cu) into native CPU executables; no GPU or CUDA toolkit needed.\n"
  "Inputs: .cu (CUDA), .c (C), .cpp/.cc/.cxx (C++), .o/.a (objects, libraries).\n"
  "  -o FILE              output file (default a.out, or NAME.o with -c)\n"
  "  -c                   compile each input to an object file, do not link\n"
  "  -I DIR, -D X[=V], -U X   preprocessor options (device and host code)\n"
  "  -O0 .. -O3           optimization of host code (default -O2); device code\n"
  "                       is built at -O3 unless -O0, -g or -G is given\n"
  "  -g, -G, -lineinfo    debug information\n"
  "  -std=c++NN           C++ standard of host code (default c++17)\n"
  "  -arch=sm_XX          compute capability to model (default sm_75); also\n"
  "                       --gpu-architecture, -code, -gencode (recorded)\n"
  "  -maxrregcount=N      cap on registers per thread (recorded)\n"
  "  -Xcompiler A,B       pass options to the host C/C++ compilers\n"
  "  -Xlinker A,B         pass options to the linker\n"
  "  -l LIB, -L DIR       libraries to link\n"
  "  -ccbin CXX           host C++ compiler, or its folder (default $CXX or c++);\n"
  "                       the C compiler is its sibling (g++: gcc, clang++: clang),\n"
  "                       without -ccbin $CC; a cross compiler (aarch64-linux-gnu-g++)\n"
  "                       builds for its machine, with cucc's runtime for it\n"
  "  -x cu                treat the following inputs as CUDA\n"
  "  -w                   no warnings from the host compilers\n"
  "  --check[=LIST]       build a checked program (docs/checking.md): LIST of\n"
  "                       memcheck, racecheck, synccheck, initcheck, leakcheck\n"
  "                       or all (default: all but leakcheck)\n"
  "  --keep               keep the generated C next to the output\n"
  "  --dump-lir           print the lowered form of each kernel (shapes, regions,\n"
  "                       versions, lanes and masks) on stderr\n"
  "  -v                   print each command as it runs\n"
  "  --version, --help\n";

typedef struct In { const char *path; int kind; } In;   /* kind: see in_kind */
enum { K_CU, K_C, K_CXX, K_OBJ };

static int in_kind(const char *p, bool force_cu) {
  if (force_cu) return K_CU;
  const char *e = strrchr(p, '.');
  if (!e) return K_OBJ;
  if (!strcmp(e, ".cu")) return K_CU;
  if (!strcmp(e, ".c")) return K_C;
  if (!strcmp(e, ".cpp") || !strcmp(e, ".cc") || !strcmp(e, ".cxx") || !strcmp(e, ".C")) return K_CXX;
  return K_OBJ;
}

static void die_usage(const char *msg, const char *arg) {
  fprintf(stderr, "cucc: error: %s '%s'\n(run 'cucc --help' for the options)\n", msg, arg);
  exit(1);
}

static void split_commas(Vec *v, const char *s) {
  char *c = xstrdup(s);
  for (char *t = strtok(c, ","); t; t = strtok(NULL, ",")) vec_push(v, xstrdup(t));
}

/* --check=LIST: the checkers, as cucc_rt.h's CU_CK_* bits */
static unsigned check_list(const char *l) {
  static const char *const names[] = {"memcheck", "racecheck", "synccheck", "initcheck", "leakcheck"};
  unsigned r = 0;
  char *c = xstrdup(l);
  for (char *t = strtok(c, ","); t; t = strtok(NULL, ",")) {
    unsigned b = 0;
    for (unsigned i = 0; i < 5; i++)
      if (!strcmp(t, names[i])) b = 1u << i;
    if (!strcmp(t, "all")) b = 31;
    if (!b) die_usage("unknown checker (memcheck, racecheck, synccheck, initcheck, leakcheck, all)", t);
    r |= b;
  }
  return r;
}

static bool exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* cucc's headers and runtime, found from the executable: the build tree
 * (build/cucc, build/include/cucc, build/lib) or an install prefix
 * (bin/cucc, include/cucc, lib). */
static void find_home(char **inc, char **lib) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) { fprintf(stderr, "cucc: error: cannot find my own executable\n"); exit(1); }
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  *slash = 0;
  const char *cands[][2] = {{"%s/include/cucc", "%s/lib"}, {"%s/../include/cucc", "%s/../lib"}};
  for (size_t i = 0; i < 2; i++) {
    char *ip = xfmt(cands[i][0], exe), *lp = xfmt(cands[i][1], exe);
    if (exists(xfmt("%s/cuda_runtime.h", ip)) && exists(xfmt("%s/libcucc_rt.a", lp))) {
      *inc = ip;
      *lib = lp;
      return;
    }
  }
  fprintf(stderr, "cucc: error: cannot find cucc's headers and runtime next to %s\n", exe);
  exit(1);
}

static char *stem(const char *p) {
  const char *b = strrchr(p, '/');
  b = b ? b + 1 : p;
  const char *e = strrchr(b, '.');
  return e ? xstrndup(b, e - b) : xstrdup(b);
}

int main(int argc, char **argv) {
  CuOpts o = {0};
  o.std = "c++17";
  o.arch = 75;
  o.opt = -1;
  Vec ins = {0}, xc = {0}, xl = {0}, libs = {0};
  const char *out = NULL, *ccbin = NULL;
  bool compile_only = false, force_cu = false, nowarn = false;

  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
#define NEXT() (i + 1 < argc ? argv[++i] : (die_usage("missing argument to", a), ""))
    if (a[0] != '-' || !a[1]) {
      In *in = xcalloc(1, sizeof *in);
      in->path = a;
      in->kind = in_kind(a, force_cu);
      vec_push(&ins, in);
    } else if (!strcmp(a, "-o")) out = NEXT();
    else if (!strcmp(a, "-c") || !strcmp(a, "--compile")) compile_only = true;
    else if (!strcmp(a, "-I")) vec_push(&o.incs, NEXT());
    else if (!strncmp(a, "-I", 2)) vec_push(&o.incs, a + 2);
    else if (!strcmp(a, "-D")) vec_push(&o.macros, xfmt("-D%s", NEXT()));
    else if (!strncmp(a, "-D", 2)) vec_push(&o.macros, a);
    else if (!strcmp(a, "-U")) vec_push(&o.macros, xfmt("-U%s", NEXT()));
    else if (!strncmp(a, "-U", 2)) vec_push(&o.macros, a);
    else if (!strcmp(a, "-O")) o.opt = 1;
    else if (a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) o.opt = a[2] - '0';
    else if (!strcmp(a, "-g") || !strcmp(a, "-G") || !strcmp(a, "--debug") || !strcmp(a, "--device-debug")) o.debug = true;
    else if (!strcmp(a, "-lineinfo") || !strcmp(a, "--generate-line-info")) ;
    else if (!strncmp(a, "-std=", 5)) o.std = a + 5;
    else if (!strncmp(a, "--std=", 6)) o.std = a + 6;
    else if (!strncmp(a, "-arch=", 6) || !strncmp(a, "--gpu-architecture=", 19) || !strcmp(a, "-arch") ||
             !strcmp(a, "--gpu-architecture")) {
      const char *v = strchr(a, '=') ? strchr(a, '=') + 1 : NEXT();
      const char *d = strpbrk(v, "0123456789");
      if (strncmp(v, "sm_", 3) && strncmp(v, "compute_", 8) && strcmp(v, "native") && strcmp(v, "all") &&
          strcmp(v, "all-major"))
        die_usage("unknown GPU architecture", v);
      if (d) o.arch = atoi(d);
    } else if (!strncmp(a, "-code=", 6) || !strncmp(a, "--gpu-code=", 11)) ;
    else if (!strcmp(a, "-code") || !strcmp(a, "-gencode") || !strcmp(a, "--generate-code")) NEXT();
    else if (!strncmp(a, "-gencode=", 9) || !strncmp(a, "--generate-code=", 16)) ;
    else if (!strncmp(a, "-maxrregcount=", 14)) o.maxrreg = atoi(a + 14);
    else if (!strcmp(a, "-maxrregcount")) o.maxrreg = atoi(NEXT());
    else if (!strcmp(a, "-Xcompiler") || !strcmp(a, "--compiler-options")) split_commas(&xc, NEXT());
    else if (!strncmp(a, "-Xcompiler=", 11)) split_commas(&xc, a + 11);
    else if (!strcmp(a, "-Xlinker") || !strcmp(a, "--linker-options")) split_commas(&xl, NEXT());
    else if (!strcmp(a, "-l")) vec_push(&libs, xfmt("-l%s", NEXT()));
    else if (!strncmp(a, "-l", 2)) vec_push(&libs, a);
    else if (!strcmp(a, "-L")) vec_push(&libs, xfmt("-L%s", NEXT()));
    else if (!strncmp(a, "-L", 2)) vec_push(&libs, a);
    else if (!strcmp(a, "-ccbin") || !strcmp(a, "--compiler-bindir")) ccbin = NEXT();
    else if (!strcmp(a, "-x")) {
      const char *l = NEXT();
      if (strcmp(l, "cu")) die_usage("unsupported language", l);
      force_cu = true;
    } else if (!strcmp(a, "-w")) nowarn = true;
    else if (!strcmp(a, "--keep") || !strcmp(a, "-keep")) o.keep = true;
    else if (!strcmp(a, "--dump-lir")) o.dump_lir = true;
    else if (!strcmp(a, "--check")) o.check = 15;   /* memcheck racecheck synccheck initcheck */
    else if (!strncmp(a, "--check=", 8)) o.check = check_list(a + 8);
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) o.verbose = true;
    else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
      printf("cucc %s: CUDA to native CPU compiler (libclang %s)\n", CUCC_VERSION, CUCC_LLVM_VERSION);
      return 0;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else die_usage("unknown option", a);
  }
  if (!ins.n) {
    fprintf(stderr, "cucc: error: no input files\n(run 'cucc --help' for the options)\n");
    return 1;
  }
  for (int i = 0; i < ins.n; i++) {
    In *in = ins.v[i];
    if (!exists(in->path)) {
      fprintf(stderr, "cucc: error: %s: No such file or directory\n", in->path);
      return 1;
    }
  }
  if (compile_only && out && ins.n > 1) {
    fprintf(stderr, "cucc: error: -o with -c names one output, but %d inputs were given\n", ins.n);
    return 1;
  }

  char *incdir, *libdir;
  find_home(&incdir, &libdir);
  o.incdir = incdir;

  Tools t = {0};
  t.verbose = o.verbose;
  drv_compilers(&t, ccbin);
  /* the target matters to parsing and to linking, not to plain .c/.cpp */
  bool need_target = !compile_only;
  for (int i = 0; i < ins.n; i++) need_target |= ((In *)ins.v[i])->kind == K_CU;
  if (need_target) drv_target(&t);
  o.target = t.triple;
  /* a program for another machine links with the runtime built for it:
   * say so before compiling anything if there is none */
  if (t.libsub && !compile_only) {
    libdir = xfmt("%s/%s", libdir, t.libsub);
    if (!exists(xfmt("%s/libcucc_rt.a", libdir))) {
      fprintf(stderr, "cucc: error: %s builds for %s, but cucc has no runtime for it (%s/libcucc_rt.a)\n"
              "(README.md, Hosts: how to build one)\n", t.cxx, t.triple, libdir);
      return 1;
    }
  }
  drv_init_cleanup();

  /* common flags of host compiles */
  Vec hflags = {0};
  int hopt = o.opt < 0 ? 2 : o.opt;
  vec_push(&hflags, xfmt("-O%d", hopt));
  if (o.debug) vec_push(&hflags, "-g");
  if (nowarn) vec_push(&hflags, "-w");
  for (int i = 0; i < xc.n; i++) vec_push(&hflags, xc.v[i]);
  o.xc = xc;

  Vec objs = {0};
  int rc = 0;
  for (int i = 0; i < ins.n && !rc; i++) {
    In *in = ins.v[i];
    char *objout = NULL;
    if (compile_only) objout = out ? xstrdup(out) : xfmt("%s.o", stem(in->path));
    if (in->kind == K_OBJ) {
      vec_push(&objs, (void *)in->path);
      continue;
    }
    char *obj = objout ? objout : drv_temp(".o", false);
    if (in->kind == K_C || in->kind == K_CXX) {
      Vec a = {0};
      vec_push(&a, (void *)(in->kind == K_C ? t.cc : t.cxx));
      for (int j = 0; j < hflags.n; j++) vec_push(&a, hflags.v[j]);
      for (int j = 0; j < o.incs.n; j++) vec_push(&a, xfmt("-I%s", (char *)o.incs.v[j]));
      /* as nvcc does: plain C and C++ sources may include the CUDA headers */
      vec_push(&a, xfmt("-I%s", incdir));
      for (int j = 0; j < o.macros.n; j++) vec_push(&a, o.macros.v[j]);
      vec_push(&a, "-c");
      vec_push(&a, (void *)in->path);
      vec_push(&a, "-o");
      vec_push(&a, obj);
      rc = drv_run(&t, &a);
    } else {
      const char *keepbase = o.keep ? xfmt("%s.%s", out ? out : compile_only ? stem(in->path) : "a.out", stem(in->path)) : NULL;
      rc = drv_cu(&t, &o, in->path, obj, &hflags, keepbase);
    }
    if (!compile_only) vec_push(&objs, obj);
  }
  if (rc) {
    drv_fail_output(compile_only ? NULL : out);
    return 1;
  }
  if (compile_only) return 0;

  /* link */
  Vec a = {0};
  vec_push(&a, (void *)t.cxx);
  for (int i = 0; i < objs.n; i++) vec_push(&a, objs.v[i]);
  vec_push(&a, xfmt("-L%s", libdir));
  vec_push(&a, "-lcucc_rt");
  for (int i = 0; i < libs.n; i++) vec_push(&a, libs.v[i]);
  for (int i = 0; i < xl.n; i++) vec_push(&a, xfmt("-Wl,%s", (char *)xl.v[i]));
  vec_push(&a, "-lpthread");
  vec_push(&a, "-lm");
  /* (what this machine's runtime was built with, e.g. the sanitizers) */
  if (*CUCC_RT_LINK_FLAGS && !t.libsub) vec_push(&a, CUCC_RT_LINK_FLAGS);
  vec_push(&a, "-o");
  vec_push(&a, (void *)(out ? out : "a.out"));
  if (drv_run(&t, &a)) {
    drv_fail_output(out ? out : "a.out");
    return 1;
  }
  return 0;
}
