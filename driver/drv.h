/* drv.h: the driver's pieces: running tools and temporary files. */
#ifndef CUCC_DRV_H
#define CUCC_DRV_H
#include "cucc.h"

typedef struct Tools {
  const char *cc, *cxx;   /* C compiler for device code, C++ for host code */
  bool verbose;
} Tools;

void drv_init_cleanup(void);                       /* remove temp files at exit */
char *drv_temp(const char *suffix, bool keep);     /* mkstemps file name */
int drv_run(Tools *t, Vec *argv);                  /* posix_spawnp; 0 on success */
void drv_fail_output(const char *out);             /* remove a partial output */
int drv_cu(Tools *t, const CuOpts *o, const char *path, const char *obj, Vec *hflags,
           const char *keepbase);                  /* .cu -> one object file */
#endif
