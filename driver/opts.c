/* opts.c: nvcc's command line. Every option of `nvcc --help` (CUDA 13.0,
 * and -Xcudafe) is in the table below, with nvcc's spellings: `--long-name` and
 * `-short-name`, a value after `=` or in the next argument, list values
 * split at commas (-I a,b is two folders, as in nvcc), and --options-file
 * read in place. What each one does in cucc (implemented, accepted with
 * nothing to do on a CPU, or refused) is docs/build-systems.md's table,
 * which tests/buildsys/options.cmake checks against this file's behaviour. */
#include "drv.h"
#include "cucc_config.h"
#include <ctype.h>
#include <errno.h>

enum { F, V, L };   /* no value, one value, a comma-separated list */

enum {
  O_CUDA, O_CUBIN, O_FATBIN, O_PTX, O_OPTIXIR, O_LTOIR, O_E, O_M, O_MM, O_MD, O_MMD, O_MF, O_MP,
  O_C, O_DC, O_DW, O_DLINK, O_LINK, O_LIB, O_RUN,
  O_O, O_INCLUDE, O_OBJTEMP, O_LIBRARY, O_DEF, O_UNDEF, O_INC, O_ISYS, O_LPATH, O_ODIR, O_CCBIN,
  O_ALLOWUNSUP, O_ARBIN, O_CUDART, O_CUDADEVRT, O_LDIR, O_TARGETDIR, O_LOCALENV, O_CLENV,
  O_PG, O_G, O_GG, O_LINEINFO, O_OPTINFO, O_OPT, O_OFC, O_DOPT, O_DLTO, O_GENOPTLTO, O_TBL, O_TDEPTH,
  O_NOEH, O_SHARED, O_X, O_STD, O_NOHD, O_RELAXED, O_LAMBDA, O_MACHINE, O_M64,
  O_XCOMP, O_XLINK, O_XAR, O_XPTXAS, O_XNVLINK, O_XCUDAFE,
  O_SGTS, O_DEHV, O_FWDCC, O_FWDLD, O_FWD, O_NOPROF, O_DRYRUN, O_V, O_THREADS, O_SPLIT, O_DSYNTAX,
  O_DTRACE, O_KEEP, O_KEEPDIR, O_CLEAN, O_TIME, O_RUNARGS, O_DRIVEPFX, O_MT, O_NOALIGN, O_NODLINK,
  O_ARCH, O_CODE, O_GENCODE, O_RDC, O_ENTRIES, O_MAXRREG, O_FASTMATH, O_FTZ, O_PRECDIV, O_PRECSQRT,
  O_FMAD, O_EXTRAVEC, O_DEFSTREAM,
  O_W, O_KEEPDEVFN, O_SRCINPTX, O_RESTRICT, O_WREORDER, O_WNOTHING, O_WNODD, O_WERROR, O_RESUSAGE,
  O_EWP, O_NOCOMPRESS, O_QPP, O_TOOLSPATCH, O_CODELS, O_ARCHLS, O_ERRNO, O_DIAG, O_HLS, O_AUGHLS,
  O_RLINK, O_BRIEF, O_JTD, O_RELOCPTX, O_DSP, O_COMPRESSMODE, O_FRANDSEED, O_SANITIZE, O_JOBSERVER,
  O_HELP, O_VERSION, O_OPTF,
  O_CHECK, O_CPU,   /* cucc's own */
};

typedef struct Opt { const char *lng, *sh; char ak; short id; } Opt;

/* (long name, short name): nvcc's two spellings, `--lng` and `-sh` */
static const Opt opts[] = {
  {"cuda", "cuda", F, O_CUDA}, {"cubin", "cubin", F, O_CUBIN}, {"fatbin", "fatbin", F, O_FATBIN},
  {"ptx", "ptx", F, O_PTX}, {"optix-ir", "optix-ir", F, O_OPTIXIR}, {"ltoir", "ltoir", F, O_LTOIR},
  {"preprocess", "E", F, O_E}, {"generate-dependencies", "M", F, O_M},
  {"generate-nonsystem-dependencies", "MM", F, O_MM},
  {"generate-dependencies-with-compile", "MD", F, O_MD},
  {"generate-nonsystem-dependencies-with-compile", "MMD", F, O_MMD},
  {"dependency-output", "MF", V, O_MF}, {"generate-dependency-targets", "MP", F, O_MP},
  {"compile", "c", F, O_C}, {"device-c", "dc", F, O_DC}, {"device-w", "dw", F, O_DW},
  {"device-link", "dlink", F, O_DLINK}, {"link", "link", F, O_LINK}, {"lib", "lib", F, O_LIB},
  {"run", "run", F, O_RUN},
  {"output-file", "o", V, O_O}, {"pre-include", "include", L, O_INCLUDE},
  {"objdir-as-tempdir", "objtemp", F, O_OBJTEMP}, {"library", "l", L, O_LIBRARY},
  {"define-macro", "D", L, O_DEF}, {"undefine-macro", "U", L, O_UNDEF}, {"include-path", "I", L, O_INC},
  {"system-include", "isystem", L, O_ISYS}, {"library-path", "L", L, O_LPATH},
  {"output-directory", "odir", V, O_ODIR}, {"compiler-bindir", "ccbin", V, O_CCBIN},
  {"allow-unsupported-compiler", "allow-unsupported-compiler", F, O_ALLOWUNSUP},
  {"archiver-binary", "arbin", V, O_ARBIN}, {"cudart", "cudart", V, O_CUDART},
  {"cudadevrt", "cudadevrt", V, O_CUDADEVRT}, {"libdevice-directory", "ldir", V, O_LDIR},
  {"target-directory", "target-dir", V, O_TARGETDIR}, {"use-local-env", "use-local-env", F, O_LOCALENV},
  {"force-cl-env-setup", "force-cl-env-setup", F, O_CLENV},
  {"profile", "pg", F, O_PG}, {"debug", "g", F, O_G}, {"device-debug", "G", F, O_GG},
  {"generate-line-info", "lineinfo", F, O_LINEINFO}, {"optimization-info", "opt-info", L, O_OPTINFO},
  {"optimize", "O", V, O_OPT}, {"Ofast-compile", "Ofc", V, O_OFC}, {"dopt", "dopt", V, O_DOPT},
  {"dlink-time-opt", "dlto", F, O_DLTO}, {"lto", "lto", F, O_DLTO}, {"gen-opt-lto", "gen-opt-lto", F, O_GENOPTLTO},
  {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", V, O_TBL},
  {"ftemplate-depth", "ftemplate-depth", V, O_TDEPTH}, {"no-exceptions", "noeh", F, O_NOEH},
  {"shared", "shared", F, O_SHARED}, {"x", "x", V, O_X}, {"std", "std", V, O_STD},
  {"no-host-device-initializer-list", "nohdinitlist", F, O_NOHD},
  {"no-host-device-move-forward", "nohdmoveforward", F, O_NOHD},
  {"expt-relaxed-constexpr", "expt-relaxed-constexpr", F, O_RELAXED},
  {"extended-lambda", "extended-lambda", F, O_LAMBDA}, {"expt-extended-lambda", "expt-extended-lambda", F, O_LAMBDA},
  {"machine", "m", V, O_MACHINE}, {"m64", "m64", F, O_M64},
  {"compiler-options", "Xcompiler", L, O_XCOMP}, {"linker-options", "Xlinker", L, O_XLINK},
  {"archive-options", "Xarchive", L, O_XAR}, {"ptxas-options", "Xptxas", L, O_XPTXAS},
  {"nvlink-options", "Xnvlink", L, O_XNVLINK}, {NULL, "Xcudafe", L, O_XCUDAFE},
  {"static-global-template-stub", "static-global-template-stub", V, O_SGTS},
  {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", V, O_DEHV},
  {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", F, O_FWDCC},
  {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", F, O_FWDLD},
  {"forward-unknown-opts", "forward-unknown-opts", F, O_FWD}, {"dont-use-profile", "noprof", F, O_NOPROF},
  {"dryrun", "dryrun", F, O_DRYRUN}, {"verbose", "v", F, O_V}, {"threads", "t", V, O_THREADS},
  {"split-compile", "split-compile", V, O_SPLIT}, {"split-compile-extended", "split-compile-extended", V, O_SPLIT},
  {"fdevice-syntax-only", "fdevice-syntax-only", F, O_DSYNTAX},
  {"fdevice-time-trace", "fdevice-time-trace", V, O_DTRACE}, {"keep", "keep", F, O_KEEP},
  {"keep-dir", "keep-dir", V, O_KEEPDIR}, {"save-temps", "save-temps", F, O_KEEP},
  {"clean-targets", "clean", F, O_CLEAN}, {"time", "time", V, O_TIME}, {"run-args", "run-args", L, O_RUNARGS},
  {"input-drive-prefix", "idp", V, O_DRIVEPFX}, {"dependency-drive-prefix", "ddp", V, O_DRIVEPFX},
  {"drive-prefix", "dp", V, O_DRIVEPFX}, {"dependency-target-name", "MT", V, O_MT},
  {"no-align-double", NULL, F, O_NOALIGN}, {"no-device-link", "nodlink", F, O_NODLINK},
  {"gpu-architecture", "arch", V, O_ARCH}, {"gpu-code", "code", L, O_CODE},
  {"generate-code", "gencode", V, O_GENCODE}, {"relocatable-device-code", "rdc", V, O_RDC},
  {"entries", "e", L, O_ENTRIES}, {"maxrregcount", "maxrregcount", V, O_MAXRREG},
  {"use_fast_math", "use_fast_math", F, O_FASTMATH}, {"ftz", "ftz", V, O_FTZ},
  {"prec-div", "prec-div", V, O_PRECDIV}, {"prec-sqrt", "prec-sqrt", V, O_PRECSQRT},
  {"fmad", "fmad", V, O_FMAD}, {"extra-device-vectorization", "extra-device-vectorization", F, O_EXTRAVEC},
  {"default-stream", "default-stream", V, O_DEFSTREAM},
  {"disable-warnings", "w", F, O_W}, {"keep-device-functions", "keep-device-functions", F, O_KEEPDEVFN},
  {"source-in-ptx", "src-in-ptx", F, O_SRCINPTX}, {"restrict", "restrict", F, O_RESTRICT},
  {"Wreorder", "Wreorder", F, O_WREORDER}, {"Wdefault-stream-launch", "Wdefault-stream-launch", F, O_WNOTHING},
  {"Wmissing-launch-bounds", "Wmissing-launch-bounds", F, O_WNOTHING},
  {"Wext-lambda-captures-this", "Wext-lambda-captures-this", F, O_WNOTHING},
  {"Wno-deprecated-declarations", "Wno-deprecated-declarations", F, O_WNODD},
  {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", F, O_WNOTHING},
  {"Werror", "Werror", L, O_WERROR}, {"resource-usage", "res-usage", F, O_RESUSAGE},
  {"extensible-whole-program", "ewp", F, O_EWP}, {"no-compress", "no-compress", F, O_NOCOMPRESS},
  {"qpp-config", "qpp-config", V, O_QPP}, {"compile-as-tools-patch", "astoolspatch", F, O_TOOLSPATCH},
  {"list-gpu-code", "code-ls", F, O_CODELS}, {"list-gpu-arch", "arch-ls", F, O_ARCHLS},
  {"display-error-number", "err-no", F, O_ERRNO}, {"no-display-error-number", "no-err-no", F, O_ERRNO},
  {"diag-error", "diag-error", L, O_DIAG}, {"diag-suppress", "diag-suppress", L, O_DIAG},
  {"diag-warn", "diag-warn", L, O_DIAG}, {"host-linker-script", "hls", V, O_HLS},
  {"augment-host-linker-script", "aug-hls", F, O_AUGHLS}, {"relocatable-link", "r", F, O_RLINK},
  {"brief-diagnostics", "brief-diag", V, O_BRIEF}, {"jump-table-density", "jtd", V, O_JTD},
  {"relocatable-ptx", "reloc-ptx", F, O_RELOCPTX}, {"device-stack-protector", "device-stack-protector", V, O_DSP},
  {"compress-mode", "compress-mode", V, O_COMPRESSMODE}, {"frandom-seed", "frandom-seed", V, O_FRANDSEED},
  {"sanitize", "sanitize", V, O_SANITIZE}, {"jobserver", "jobserver", F, O_JOBSERVER},
  {"help", "h", F, O_HELP}, {"version", "V", F, O_VERSION}, {"options-file", "optf", L, O_OPTF},
  {"cpu", NULL, V, O_CPU},
};

/* short options whose value may follow without a space: -Ifolder -DX -lm -O3 */
static const char *const attached[] = {"I", "D", "U", "L", "l", "O", "t", "isystem"};

static void die(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "cucc: error: ");
  fprintf(stderr, fmt, a, b);
  fputs("\n(run 'cucc --help' for the options; docs/build-systems.md has nvcc's whole list)\n", stderr);
  exit(1);
}

static char *spell(const Opt *o) {
  return o->sh ? xfmt("-%s", o->sh) : xfmt("--%s", o->lng);
}

/* ---- --options-file: whitespace-separated words, "..." and '...'
 * quoting, backslash escapes ---- */
static void read_optfile(Vec *out, const char *path, int depth);

static void splice(Vec *out, char *a, char **next, int *i, int n, int depth) {
  /* -optf F, -optf=F, --options-file F, --options-file=F (F may be a list) */
  const char *v = NULL;
  if (!strcmp(a, "-optf") || !strcmp(a, "--options-file")) {
    if (*i + 1 >= n) die("missing value of %s%s", a, "");
    v = next[++*i];
  } else if (!strncmp(a, "-optf=", 6) || !strncmp(a, "--options-file=", 15)) v = strchr(a, '=') + 1;
  if (!v) {
    vec_push(out, a);
    return;
  }
  char *c = xstrdup(v);
  for (char *t = strtok(c, ","); t; t = strtok(NULL, ",")) read_optfile(out, t, depth + 1);
}

static void read_optfile(Vec *out, const char *path, int depth) {
  if (depth > 16) die("options files nest too deeply: %s%s", path, "");
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot read options file '%s': %s", path, strerror(errno));
  Buf b = {0};
  char tmp[4096];
  size_t k;
  while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) buf_put(&b, tmp, k);
  fclose(f);
  Vec words = {0};
  const char *s = b.s ? b.s : "";
  while (*s) {
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    Buf w = {0};
    buf_puts(&w, "");
    while (*s && !isspace((unsigned char)*s)) {
      if (*s == '"' || *s == '\'') {
        char q = *s++;
        while (*s && *s != q) {
          if (q == '"' && *s == '\\' && s[1]) s++;
          buf_put(&w, s++, 1);
        }
        if (*s) s++;
      } else {
        if (*s == '\\' && s[1]) s++;
        buf_put(&w, s++, 1);
      }
    }
    vec_push(&words, w.s);
  }
  for (int i = 0; i < words.n; i++) splice(out, words.v[i], (char **)words.v, &i, words.n, depth);
}

/* ---- values ---- */
static bool boolean(const char *opt, const char *v) {
  if (!strcmp(v, "true")) return true;
  if (!strcmp(v, "false")) return false;
  die("%s: '%s': expected true or false", opt, v);
  return false;
}

static void split_commas(Vec *v, const char *s) {
  char *c = xstrdup(s);
  for (char *t = strtok(c, ","); t; t = strtok(NULL, ",")) vec_push(v, xstrdup(t));
}

/* The compute capabilities cucc models (runtime/src/models.c). */
static const int models[] = {10, 11, 12, 13, 20, 21, 30, 35, 37, 50, 52, 53, 60, 61, 70, 75, 80, 86, 89, 90};
#define NMODELS (int)(sizeof models / sizeof *models)

/* sm_80, compute_80, lto_80, sm_90a, sm_100f: the capability (80); native,
 * all, all-major as -1, -2, -3; 0 if it is none of these */
static int arch_value(const char *s) {
  while (*s == '"' || *s == '[' || *s == ' ') s++;
  if (!strncmp(s, "native", 6)) return -1;
  if (!strncmp(s, "all-major", 9)) return -3;
  if (!strncmp(s, "all", 3)) return -2;
  const char *d = NULL;
  if (!strncmp(s, "sm_", 3)) d = s + 3;
  else if (!strncmp(s, "compute_", 8)) d = s + 8;
  else if (!strncmp(s, "lto_", 4)) d = s + 4;
  if (!d || !isdigit((unsigned char)*d)) return 0;
  return atoi(d);
}

typedef struct Args { int want; bool any; } Args;   /* the highest capability named */

static void arch_name(Args *ar, const char *opt, const char *v) {
  int a = arch_value(v);
  if (!a) die("%s: unknown GPU architecture '%s' (sm_XX, compute_XX, lto_XX, native, all, all-major)", opt, v);
  if (a == -1) return;              /* the GPU of this machine: cucc's default model */
  if (a < 0) a = models[NMODELS - 1];
  if (a > ar->want) ar->want = a;
  ar->any = true;
}

/* -gencode arch=compute_80,code=[sm_80,compute_80]: keywords at the commas
 * outside brackets and quotes */
static void gencode(Args *ar, const char *opt, const char *spec) {
  const char *s = spec;
  bool arch = false;
  while (*s) {
    const char *e = s;
    int depth = 0;
    bool q = false;
    for (; *e && (depth || q || *e != ','); e++) {
      if (*e == '"') q = !q;
      else if (*e == '[') depth++;
      else if (*e == ']') depth--;
    }
    char *item = xstrndup(s, e - s);
    char *eq = strchr(item, '=');
    if (!eq || (strncmp(item, "arch=", 5) && strncmp(item, "code=", 5)))
      die("%s: '%s': expected arch=<arch>,code=<code>", opt, spec);
    arch |= item[0] == 'a';
    /* each name of the value: "a,b", [a,b] or a */
    char *v = eq + 1;
    for (char *t = strtok(v, ",[]\" "); t; t = strtok(NULL, ",[]\" ")) arch_name(ar, opt, t);
    s = *e ? e + 1 : e;
  }
  if (!arch) die("%s: '%s': no arch= keyword", opt, spec);
}

/* The model for the highest capability named: the newest model at or
 * below it (a warning when that is not the one asked for). */
static int choose_model(Args *ar, bool quiet) {
  if (!ar->any) return 75;
  int m = 0;
  for (int i = 0; i < NMODELS; i++)
    if (models[i] <= ar->want) m = models[i];
  if (!m) {
    fprintf(stderr, "cucc: error: no device model at or below sm_%d (models: sm_10 .. sm_90)\n", ar->want);
    exit(1);
  }
  if (m != ar->want && !quiet)
    fprintf(stderr, "cucc: warning: no device model of sm_%d; modelling sm_%d (docs/devices.md)\n", ar->want, m);
  return m;
}

static void list_arch(bool code, bool arch) {
  for (int i = 0; i < NMODELS; i++) {
    if (code && arch) printf("-gencode arch=compute_%d,code=sm_%d\n", models[i], models[i]);
    else printf("%s_%d\n", code ? "sm" : "compute", models[i]);
  }
}

/* ---- the options ---- */
typedef struct St {
  Drv *d;
  Args ar;
  bool fwd_cc, fwd_ld;
  bool version, help, code_ls, arch_ls;
  bool deps_compile;   /* -MD/-MMD: compile too */
  bool deps_only;      /* -M/-MM */
  bool mode_set;
  bool quiet_arch;
  int rdc;             /* -1 unset */
} St;

static void set_mode(St *st, Mode m, const char *a) {
  if (st->mode_set && st->d->mode != m)
    die("%s conflicts with an earlier phase option (-c, -dc, -dlink, -lib, -E, -M, -run ...)%s", a, "");
  st->d->mode = m;
  st->mode_set = true;
}

static void refuse(const char *a, const char *why) { die("%s is not supported: %s", a, why); }

static void apply(St *st, const Opt *o, const char *a, const char *v) {
  Drv *d = st->d;
  CuOpts *co = &d->o;
  switch (o->id) {
  case O_CUDA: refuse(a, "cucc makes no .cu.cpp.ii; --keep leaves the host C++ (.host.cpp) and device C (.dev.c) it generates"); break;
  case O_CUBIN: case O_FATBIN: case O_PTX: case O_OPTIXIR: case O_LTOIR:
    refuse(a, "cucc makes no GPU code; its device code is C for the CPU (--keep shows it)"); break;
  case O_E: set_mode(st, M_PREPROC, a); break;
  case O_M: case O_MM: st->deps_only = true; d->deps = o->id == O_M ? 1 : 2; set_mode(st, M_DEPS, a); break;
  case O_MD: case O_MMD: st->deps_compile = true; d->deps = o->id == O_MD ? 1 : 2; break;
  case O_MF: d->mf = v; break;
  case O_MP: d->mp = true; break;
  case O_MT: vec_push(&d->mt, (void *)v); break;
  case O_C: set_mode(st, M_COMPILE, a); break;
  case O_DC: set_mode(st, M_COMPILE, a); st->rdc = 1; break;
  case O_DW: set_mode(st, M_COMPILE, a); st->rdc = 0; break;
  case O_DLINK: set_mode(st, M_DLINK, a); break;
  case O_LINK: set_mode(st, M_LINK, a); break;
  case O_LIB: set_mode(st, M_LIB, a); break;
  case O_RUN: set_mode(st, M_RUN, a); break;
  case O_RLINK: set_mode(st, M_RLINK, a); break;
  case O_DSYNTAX: set_mode(st, M_SYNTAX, a); break;
  case O_O: d->out = v; break;
  case O_INCLUDE: vec_push(&co->macros, "-include"); vec_push(&co->macros, (void *)v); break;
  case O_LIBRARY: vec_push(&d->lflags, xfmt("-l%s", v)); break;
  case O_DEF:   /* (a launch is rewritten in the source's text, which -D is not) */
    if (strstr(v, "<<<")) die("-D%s: a kernel launch (<<<) in a command-line macro is not supported: define the macro in the source%s", v, "");
    vec_push(&co->macros, xfmt("-D%s", v));
    break;
  case O_UNDEF: vec_push(&co->macros, xfmt("-U%s", v)); break;
  case O_INC: vec_push(&co->incs, (void *)v); break;
  case O_ISYS: vec_push(&co->macros, "-isystem"); vec_push(&co->macros, (void *)v); break;
  case O_LPATH: vec_push(&d->lflags, xfmt("-L%s", v)); break;
  case O_ODIR: d->odir = v; break;
  case O_CCBIN: d->ccbin = v; break;
  case O_ARBIN: d->arbin = v; break;
  case O_CUDART:
    if (strcmp(v, "none") && strcmp(v, "shared") && strcmp(v, "static"))
      die("%s: '%s': expected none, shared or static", a, v);
    d->cudart = v;
    break;
  case O_CUDADEVRT:
    if (strcmp(v, "none") && strcmp(v, "static")) die("%s: '%s': expected none or static", a, v);
    break;
  case O_PG: vec_push(&d->hflags, "-pg"); vec_push(&d->lflags, "-pg"); break;
  case O_G: d->host_debug = true; break;
  case O_GG: d->dev_debug = true; break;
  case O_OPT:
    if (!isdigit((unsigned char)v[0]) || v[1] || v[0] > '3') die("%s: '%s': expected a number 0 to 3", a, v);
    co->opt = v[0] - '0';
    break;
  case O_OFC:
    /* fast compile of device code: a lower -O for the device C */
    if (!strcmp(v, "max")) d->dev_opt = 1;
    else if (!strcmp(v, "mid") || !strcmp(v, "min")) d->dev_opt = 2;
    else if (strcmp(v, "0")) die("%s: '%s': expected 0, min, mid or max", a, v);
    break;
  case O_DOPT:
    if (strcmp(v, "on")) die("%s: '%s': expected on", a, v);
    d->dev_opt = 3;
    break;
  case O_TBL: case O_TDEPTH: {
    char *f = xfmt("-%s=%s", o->lng, v);
    vec_push(&d->hflags, f);
    vec_push(&d->o.parse_flags, f);
    break;
  }
  case O_NOEH: vec_push(&d->hflags, "-fno-exceptions"); break;
  case O_SHARED: d->shared = true; break;
  case O_X:
    if (!strcmp(v, "cu")) d->lang = K_CU;
    else if (!strcmp(v, "c")) d->lang = K_C;
    else if (!strcmp(v, "c++")) d->lang = K_CXX;
    else die("%s: '%s': expected c, c++ or cu", a, v);
    break;
  case O_STD:
    if (strncmp(v, "c++", 3) && strncmp(v, "gnu++", 5)) die("%s: '%s': expected c++03, c++11, c++14, c++17 or c++20", a, v);
    co->std = v;
    break;
  case O_MACHINE:
    if (strcmp(v, "64")) die("%s: '%s': cucc builds 64-bit programs only", a, v);
    break;
  case O_XCOMP: vec_push(&d->hflags, (void *)v); break;
  case O_XLINK: vec_push(&d->lflags, xfmt("-Wl,%s", v)); break;
  case O_XAR: vec_push(&d->aflags, (void *)v); break;
  case O_XPTXAS:
    /* ptxas's -v prints resource usage, its -O sets the device code's
     * optimization; nothing else of ptxas has a CPU meaning */
    if (!strcmp(v, "-v") || !strcmp(v, "--verbose")) co->resusage = true;
    else if (v[0] == '-' && v[1] == 'O' && v[2] >= '0' && v[2] <= '3' && !v[3]) d->dev_opt = v[2] - '0';
    break;
  case O_XNVLINK: case O_XCUDAFE: break;
  case O_SGTS: case O_DEHV: case O_BRIEF: case O_FTZ: case O_PRECSQRT: boolean(a, v); break;
  case O_FWDCC: st->fwd_cc = true; break;
  case O_FWDLD: st->fwd_ld = true; break;
  case O_FWD: st->fwd_cc = st->fwd_ld = true; break;
  case O_DRYRUN: d->dryrun = true; break;
  case O_V: co->verbose = true; break;
  case O_THREADS: case O_SPLIT:
    if (!isdigit((unsigned char)v[0])) die("%s: '%s': expected a number", a, v);
    if (o->id == O_SPLIT) d->split = atoi(v);
    break;
  case O_KEEP: co->keep = true; break;
  case O_KEEPDIR: co->keep = true; d->keep_dir = v; break;
  case O_CLEAN: d->clean = true; break;
  case O_TIME: d->time_file = v; break;
  case O_RUNARGS: vec_push(&d->run_args, (void *)v); break;
  case O_ARCH: arch_name(&st->ar, a, v); break;
  case O_CODE: arch_name(&st->ar, a, v); break;
  case O_GENCODE: gencode(&st->ar, a, v); break;
  case O_RDC: st->rdc = boolean(a, v); break;
  case O_MAXRREG:
    if (!isdigit((unsigned char)v[0])) die("%s: '%s': expected a number", a, v);
    co->maxrreg = atoi(v);
    break;
  case O_FASTMATH: d->fast_math = true; break;
  case O_PRECDIV: d->approx_div = !boolean(a, v); break;
  case O_FMAD: d->no_fmad = !boolean(a, v); break;
  case O_DEFSTREAM:
    if (strcmp(v, "legacy") && strcmp(v, "null") && strcmp(v, "per-thread"))
      die("%s: '%s': expected legacy, null or per-thread", a, v);
    break;
  case O_W: d->nowarn = d->o.nowarn = true; st->quiet_arch = true; break;
  case O_WREORDER: vec_push(&d->o.parse_flags, "-Wreorder"); break;
  case O_WNODD:
    vec_push(&d->o.parse_flags, "-Wno-deprecated-declarations");
    vec_push(&d->hflags, "-Wno-deprecated-declarations");
    break;
  case O_WNOTHING:
    if (!strcmp(o->lng, "Wno-deprecated-gpu-targets")) st->quiet_arch = true;
    break;
  case O_WERROR:
    /* the user's source as the parse diagnoses it; never the generated C */
    if (!strcmp(v, "all-warnings")) vec_push(&d->o.parse_flags, "-Werror");
    else if (!strcmp(v, "reorder") || !strcmp(v, "deprecated-declarations"))
      vec_push(&d->o.parse_flags, xfmt("-Werror=%s", v));
    else if (strcmp(v, "cross-execution-space-call") && strcmp(v, "default-stream-launch") &&
             strcmp(v, "missing-launch-bounds") && strcmp(v, "ext-lambda-captures-this"))
      die("%s: unknown warning kind '%s'", a, v);
    break;
  case O_RESUSAGE: co->resusage = true; break;
  case O_TOOLSPATCH: refuse(a, "there are no CUDA tools' patches on a CPU"); break;
  case O_CODELS: st->code_ls = true; break;
  case O_ARCHLS: st->arch_ls = true; break;
  case O_HLS:
    if (!strcmp(v, "gen-lcs")) refuse(a, "cucc's objects need no host linker script");
    else if (strcmp(v, "use-lcs")) die("%s: '%s': expected use-lcs or gen-lcs", a, v);
    break;
  case O_JTD:
    if (!isdigit((unsigned char)v[0])) die("%s: '%s': expected a number", a, v);
    break;
  case O_DSP: d->stack_protect = boolean(a, v); break;
  case O_FRANDSEED: {
    char *f = xfmt("-frandom-seed=%s", v);
    vec_push(&d->hflags, f);
    vec_push(&d->dflags, f);
    break;
  }
  case O_SANITIZE: {
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    unsigned b = 0;
    for (unsigned i = 0; i < 4; i++)
      if (!strcmp(v, tools[i])) b = 1u << i;
    if (!b) die("%s: '%s': expected memcheck, racecheck, synccheck or initcheck", a, v);
    co->check |= b;
    break;
  }
  case O_HELP: st->help = true; break;
  case O_VERSION: st->version = true; break;
  case O_CPU: d->cpu = v; break;
  default: break;   /* accepted: nothing on a CPU corresponds (docs/build-systems.md) */
  }
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
    if (!b) die("unknown checker '%s' (memcheck, racecheck, synccheck, initcheck, leakcheck, all)%s", t, "");
    r |= b;
  }
  return r;
}

static int in_kind(const char *p) {
  const char *e = strrchr(p, '.');
  if (!e || strchr(e, '/')) return K_OBJ;
  if (!strcmp(e, ".cu")) return K_CU;
  if (!strcmp(e, ".c") || !strcmp(e, ".i")) return K_C;
  if (!strcmp(e, ".cpp") || !strcmp(e, ".cc") || !strcmp(e, ".cxx") || !strcmp(e, ".C") || !strcmp(e, ".ii") ||
      !strcmp(e, ".c++"))
    return K_CXX;
  return K_OBJ;
}

static const Opt *find(const char *name, bool lng) {
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
    const char *n = lng ? opts[i].lng : opts[i].sh;
    if (n && !strcmp(n, name)) return &opts[i];
  }
  return NULL;
}

void drv_parse_args(Drv *d, int argc, char **argv) {
  Vec args = {0};
  for (int i = 1; i < argc; i++) splice(&args, argv[i], argv, &i, argc, 0);
  St st = {.d = d, .rdc = -1};
  d->o.std = "c++17";
  d->o.opt = -1;
  d->dev_opt = -1;
  d->split = -1;
  d->lang = -1;
  d->cudart = "static";
  char **av = (char **)args.v;
  int n = args.n;
  for (int i = 0; i < n; i++) {
    char *a = av[i];
    if (a[0] != '-' || !a[1]) {
      In *in = xcalloc(1, sizeof *in);
      in->path = a;
      vec_push(&d->ins, in);
      continue;
    }
    if (!strcmp(a, "--check")) {
      d->o.check = 15;   /* memcheck racecheck synccheck initcheck */
      continue;
    }
    if (!strncmp(a, "--check=", 8)) {
      d->o.check = check_list(a + 8);
      continue;
    }
    if (!strcmp(a, "--dump-lir")) {   /* the lowered form on stderr */
      d->o.dump_lir = true;
      continue;
    }
    bool lng = a[1] == '-';
    const char *body = a + (lng ? 2 : 1);
    const char *eq = strchr(body, '=');
    char *name = eq ? xstrndup(body, eq - body) : xstrdup(body);
    const Opt *o = find(name, lng);
    const char *v = eq ? eq + 1 : NULL;
    if (!o && !lng) {
      /* -Ifolder, -DX=1, -lm, -O3 */
      for (size_t k = 0; k < sizeof attached / sizeof *attached && !o; k++) {
        size_t kl = strlen(attached[k]);
        if (!strncmp(body, attached[k], kl) && body[kl]) {
          o = find(attached[k], false);
          v = body + kl;
        }
      }
    }
    if (!o) {
      /* -forward-unknown-to-host-compiler/-linker: as nvcc, only the
       * option itself goes (a value must be joined to it) */
      if (st.fwd_cc || st.fwd_ld) {
        if (st.fwd_cc) vec_push(&d->hflags, a);
        if (st.fwd_ld) vec_push(&d->lflags, a);
        continue;
      }
      die("unknown option '%s'%s", a, "");
    }
    if (o->ak == F) {
      if (v) die("option '%s' takes no value ('%s')", spell(o), a);
      apply(&st, o, a, NULL);
      continue;
    }
    if (!v) {
      if (i + 1 >= n) die("missing value of option '%s'%s", a, "");
      v = av[++i];
    }
    if (o->ak == L) {
      Vec items = {0};
      split_commas(&items, v);
      for (int k = 0; k < items.n; k++) apply(&st, o, a, items.v[k]);
    } else apply(&st, o, a, v);
  }

  if (st.version) {
    printf("cucc %s: compiles CUDA programs for the CPU (libclang %s)\n"
           "cucc is not NVIDIA software; for build systems it follows the conventions of\n"
           "nvcc: NVIDIA (R) Cuda compiler driver (options, macros, -v output)\n"
           "CUDA 12.8 headers and runtime API, V12.8.0\n",
           CUCC_VERSION, CUCC_LLVM_VERSION);
    exit(0);
  }
  if (st.help) {
    fputs(drv_usage, stdout);
    exit(0);
  }
  if (st.code_ls || st.arch_ls) {
    list_arch(st.code_ls, st.arch_ls);
    exit(0);
  }
  d->o.arch = choose_model(&st.ar, st.quiet_arch || d->nowarn);
  if (st.deps_compile && st.deps_only) die("-MD/-MMD (compile too) conflicts with -M/-MM%s", "", "");
  if (st.deps_compile && d->mode == M_PREPROC) die("-MD/-MMD cannot be used with -E%s", "", "");
  if (d->mode == M_DEPS && !d->deps) d->deps = 1;
  /* -rdc applies to what is compiled; -dc is -rdc=true -c */
  d->o.rdc = st.rdc == 1;
  d->o.debug = d->dev_debug;
  for (int i = 0; i < d->ins.n; i++) {
    In *in = d->ins.v[i];
    in->kind = in_kind(in->path);
    if (d->lang >= 0 && in->kind != K_OBJ) in->kind = d->lang;
    else if (d->lang >= 0 && strrchr(in->path, '.') == NULL) in->kind = d->lang;
  }
}

const char drv_usage[] =
  "usage: cucc [options] file... [-o output]\n"
  "Compiles CUDA programs (.cu) into native CPU executables; no GPU or CUDA toolkit needed.\n"
  "Inputs: .cu (CUDA), .c (C), .cpp/.cc/.cxx (C++), .o/.a/.so (objects, libraries).\n"
  "Takes nvcc's options (--long-name or -short, value after = or a space; the whole\n"
  "list and what each does in cucc: docs/build-systems.md). The usual ones:\n"
  "  -o FILE              output file (default a.out, NAME.o with -c)\n"
  "  -c, -dc              compile to objects (-dc: relocatable device code, as -rdc=true)\n"
  "  -dlink, -lib, -shared, -run   device-link object, static library, shared\n"
  "                       library, build and run\n"
  "  -E, -M, -MM, -MD, -MMD, -MF F, -MT T, -MP   preprocess; gcc-style dependency files\n"
  "  -I DIR, -isystem DIR, -D X[=V], -U X, -include F   preprocessor options\n"
  "  -O0 .. -O3           host code (default -O2); device code is built at -O3\n"
  "                       (-G: device debug at -O0; -Xptxas -O1; -Ofc max|mid)\n"
  "  -g                   host debug information; -G device debug information\n"
  "  -std=c++NN           C++ standard (default c++17)\n"
  "  -arch=sm_XX, -code, -gencode arch=..,code=..   the compute capability modelled\n"
  "                       (the highest named; default sm_75) and __CUDA_ARCH__\n"
  "  -rdc=true            extern __device__ functions and variables across files\n"
  "  -Xcompiler A,B       options of the host C/C++ compilers (device C too)\n"
  "  -Xlinker A,B, -l LIB, -L DIR   linking; -lcudart, -lcuda link cucc's runtime\n"
  "  -ccbin CXX           host C++ compiler or its folder (default $CXX or c++); the\n"
  "                       C compiler is its sibling (g++: gcc); a cross compiler\n"
  "                       (aarch64-linux-gnu-g++) builds for its machine\n"
  "  -Xptxas -v, --resource-usage   each kernel's registers and shared memory\n"
  "  --use_fast_math      fast math in device code\n"
  "  --options-file F     more options, read from F\n"
  "  -forward-unknown-to-host-compiler   pass unknown options to the host compiler\n"
  "  -w                   no warnings from the host compilers\n"
  "cucc's own:\n"
  "  --cpu=portable|native|MARCH   the CPU device code is built for (default native:\n"
  "                       this machine's; portable: the target's baseline ISA)\n"
  "  --check[=LIST]       build a checked program (docs/checking.md): LIST of\n"
  "                       memcheck, racecheck, synccheck, initcheck, leakcheck\n"
  "                       or all (default: all but leakcheck)\n"
  "  --keep, --keep-dir D keep the generated C (next to the output, or in D)\n"
  "  --dump-lir           print the lowered form of each kernel (shapes, regions,\n"
  "                       versions, lanes and masks) on stderr\n"
  "  -v, --dryrun         print each command and phase time; print, run nothing\n"
  "  --version, --help\n";
