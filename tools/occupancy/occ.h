/* occ.h: cucc-occupancy, NVIDIA's occupancy calculator on cucc's device
 * models. The models and the occupancy rules are the runtime's
 * (runtime/src/models.c: rt_models, rt_occupancy, rt_potential); this tool
 * only asks them questions and draws the answers. */
#ifndef CUCC_OCC_H
#define CUCC_OCC_H
#include "rt.h"
#include <limits.h>

/* One configuration: threads per block, registers per thread, shared
 * memory per block (static + dynamic), and what the model makes of it. */
typedef struct OcCfg {
  int threads, regs;
  size_t smem;
} OcCfg;

typedef struct OcRes {
  OcCfg c;
  rt_occ o;
  int warps_block;            /* warps of one block */
  int warps;                  /* active warps per SM */
  int max_warps;              /* the SM's warps */
} OcRes;

/* A kernel of a program, as cucc compiled it. */
typedef struct OcKern {
  char *name;                 /* as people read it: ns::k<float, 16>(float *) */
  char *file;
  int line;
  int nregs;                  /* cucc's estimate (after -maxrregcount) */
  int max_threads;            /* __launch_bounds__, 0 if none */
  size_t smem_static;
} OcKern;

/* A graph: warps per SM as one resource varies, the others held. */
enum { OC_THREADS, OC_REGS, OC_SMEM, OC_NGRAPH };
typedef struct OcPt { long x; int blocks, warps; const char *lim; } OcPt;
typedef struct OcGraph { int what; OcPt *p; int n; long xmax; } OcGraph;

/* What one plot or table is about: a configuration on a model. */
typedef struct OcCase {
  const rt_model *m;
  const char *title;          /* the kernel, or NULL for bare numbers */
  const char *fields;         /* the model's changed fields (regsPerSM=16384), or NULL */
  OcRes r;
  int max_threads;            /* block size limit: __launch_bounds__ or the model's */
  OcGraph g[OC_NGRAPH];
} OcCase;

/* calc.c */
OcRes oc_eval(const rt_model *m, OcCfg c);
size_t oc_smem_limit(const rt_model *m);          /* the most a block may use */
long oc_most(const rt_model *m, OcCfg c, int what, int blocks);   /* largest value keeping >= blocks */
long oc_gain(const rt_model *m, OcCfg c, int what, int blocks);   /* largest value giving > blocks, -1 if none */
void oc_graphs(OcCase *k);
void oc_free_graphs(OcCase *k);

/* kern.c: the kernels of .cu files compiled by cucc; *arch: their -arch */
int oc_kernels(const char *self, char **cucc_args, int nargs, char **srcs, int nsrcs, OcKern **out, int *n,
               int *arch);

/* plot.c: the three graphs as SVG, or PNG through a converter */
int oc_plot(const char *path, OcCase *cs, int n);
#endif
