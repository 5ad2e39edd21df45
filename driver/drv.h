/* drv.h: the driver's pieces: running tools and temporary files. */
#ifndef CUCC_DRV_H
#define CUCC_DRV_H
#include "cucc.h"

typedef struct Tools {
  const char *cc, *cxx;   /* C compiler for device code, C++ for host code */
  const char *triple;     /* the machine they build for if not this one (drv_target) */
  const char *libsub;     /* then its runtime's folder under lib/ */
  bool verbose;
} Tools;

void drv_init_cleanup(void);                       /* remove temp files at exit */
char *drv_temp(const char *suffix, bool keep);     /* mkstemps file name */
int drv_run(Tools *t, Vec *argv);                  /* posix_spawnp; 0 on success */
char *drv_capture(Tools *t, Vec *argv);            /* its first output line, or NULL */
void drv_compilers(Tools *t, const char *ccbin);   /* target.c: sets cc, cxx */
void drv_target(Tools *t);                         /* target.c: sets triple, libsub */
void drv_fail_output(const char *out);             /* remove a partial output */
int drv_cu(Tools *t, const CuOpts *o, const char *path, const char *obj, Vec *hflags,
           const char *keepbase);                  /* .cu -> one object file */
#endif
