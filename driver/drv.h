/* drv.h: the driver's pieces: nvcc's options (opts.c), running tools and
 * temporary files (spawn.c), host compilers and their machine (target.c),
 * preprocessing and dependency files (deps.c), the phases (main.c). */
#ifndef CUCC_DRV_H
#define CUCC_DRV_H
#include "cucc.h"

typedef struct Tools {
  const char *cc, *cxx;   /* C compiler for device C, C++ for host code */
  const char *rcxx;       /* C++ compiler of partial links (-r): cxx, or the compiler an MPI wrapper runs */
  const char *triple;     /* the machine they build for if not this one (drv_target) */
  const char *libsub;     /* then its runtime's folder under lib/ */
  bool verbose;           /* -v: print each command */
  bool dryrun;            /* --dryrun: print each command, run nothing */
} Tools;

/* an input file and how it is compiled */
typedef struct In { const char *path; int kind; } In;
enum { K_CU, K_C, K_CXX, K_OBJ };

/* What the command makes (nvcc's phase options). */
typedef enum {
  M_LINK,      /* (default, --link) an executable, or -shared a library */
  M_COMPILE,   /* -c, -dc, -dw: one object per input */
  M_DLINK,     /* -dlink: the device-link object */
  M_LIB,       /* -lib: a static library */
  M_RUN,       /* -run: an executable, then run it */
  M_RLINK,     /* -r: a relocatable object of all inputs */
  M_PREPROC,   /* -E */
  M_DEPS,      /* -M, -MM: a dependency file only */
  M_SYNTAX,    /* -fdevice-syntax-only: diagnose, make nothing */
} Mode;

typedef struct Drv {
  CuOpts o;             /* what the frontend sees */
  Vec ins;              /* In* */
  Mode mode;
  const char *out;      /* -o */
  const char *odir;     /* -odir: folder of the dependency target */
  const char *ccbin, *arbin;
  int lang;             /* -x: K_CU, K_C, K_CXX, or -1 */
  bool shared;          /* -shared */
  bool nowarn;          /* -w */
  bool host_debug;      /* -g: host debug information */
  bool dev_debug;       /* -G */
  int dev_opt;          /* device C's -O level: -1 the default (3) */
  int split;            /* --split-compile: device C's jobs (0 the CPUs, -1 the default) */
  bool fast_math, no_fmad, approx_div, stack_protect;
  const char *cudart;   /* -cudart none|shared|static */
  Vec hflags;           /* host compile flags (-Xcompiler, forwarded, -pg ...) */
  Vec dflags;           /* device C compile flags of our own (--cpu, fast math) */
  Vec lflags;           /* link flags in order: -l, -L, -Xlinker, forwarded */
  Vec aflags;           /* -Xarchive */
  /* dependency files */
  int deps;             /* 1: -M/-MD (all headers), 2: -MM/-MMD (no system headers) */
  const char *mf;       /* -MF */
  Vec mt;               /* -MT targets */
  bool mp;              /* -MP */
  /* keeping and showing */
  const char *keep_dir; /* --keep-dir */
  const char *time_file;/* --time */
  Vec run_args;         /* --run-args */
  bool clean;           /* --clean-targets */
  bool dryrun;          /* --dryrun */
  const char *cpu;      /* --cpu: portable, native or a -march value */
  const char *incdir, *libdir, *top;   /* cucc's headers, runtime, toolkit view */
} Drv;

/* opts.c */
void drv_parse_args(Drv *d, int argc, char **argv);

/* spawn.c */
void drv_init_cleanup(void);                       /* remove temp files at exit */
char *drv_temp(const char *suffix, bool keep);     /* mkstemps file name */
int drv_run(Tools *t, Vec *argv);                  /* posix_spawnp; 0 on success */
int drv_run_out(Tools *t, Vec *argv, const char *out); /* stdout to a file (NULL: ours) */
long drv_spawn(Tools *t, Vec *argv, const char *out); /* started, not waited for */
int drv_wait(long pid, Vec *argv);                 /* waits for drv_spawn's; 0 on success */
char *drv_capture(Tools *t, Vec *argv);            /* its first output line, or NULL */
char *drv_capture_quiet(Tools *t, Vec *argv);      /* the same, its stderr and a failure to start unsaid */
void drv_print_cmd(Vec *argv);                     /* as -v shows it */
char *drv_quote(const char *s);                    /* one argument as -v shows it */
double drv_now(void);                              /* seconds, monotonic */
void drv_fail_output(const char *out);             /* remove a partial output */
void drv_unlink_output(const char *out);           /* remove an output if a regular file */
int drv_write_file(const char *path, const char *s);

/* target.c */
void drv_compilers(Tools *t, const char *ccbin);   /* sets cc, cxx */
void drv_target(Tools *t);                         /* sets triple, libsub */
const char *drv_cpu_flag(Tools *t, const char *cpu); /* --cpu: the device C's -march flag */
const char *drv_gcc_include(Tools *t);             /* the host C compiler's own include folder */
bool drv_openmp(Tools *t);                         /* the host compilers have OpenMP */
bool drv_user_openmp(Drv *d);                      /* the user's host options say -fopenmp or -fno-openmp */
void drv_wrapper_flags(Tools *t, Vec *pf);         /* an MPI wrapper's include flags, for the parse */
void drv_wrapped(Tools *t);                        /* sets rcxx */

/* deps.c */
void drv_pp_args(Drv *d, Tools *t, Vec *a, In *in);   /* preprocessor flags of a source */
int drv_preprocess(Drv *d, Tools *t, In *in, const char *out);
int drv_deps(Drv *d, Tools *t, In *in, const char *obj, const char *depfile);
char *drv_depfile(Drv *d, In *in);

/* compile.c */
int drv_compile(Drv *d, Tools *t, In *in, const char *obj);  /* one input to an object */
int drv_link(Drv *d, Tools *t, Vec *objs, const char *out, const char *linkdir);
int drv_lib(Drv *d, Tools *t, Vec *objs, const char *out);
int drv_rlink(Drv *d, Tools *t, Vec *objs, const char *out);
int drv_dlink(Drv *d, Tools *t, const char *out);
char *drv_stem(const char *path);                  /* dir/name.cu -> name */
void drv_time(const char *phase, const char *file, double secs);
int drv_write_times(const char *path);             /* --time */

/* main.c */
extern const char drv_usage[];
#endif
