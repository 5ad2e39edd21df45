/* deps.c: -E and dependency files (-M, -MM, -MD, -MMD, -MF, -MT, -MP).
 *
 * Both come from the host compiler's preprocessor run on the user's own
 * source with the flags of nvcc's host pass (our headers, -include
 * cuda_runtime.h, -I, -D): so a dependency file names the .cu and the
 * headers it includes, in gcc's format, never the generated files the
 * compile works on (the host unit pastes the user's headers). The parse
 * sees the same headers: it has the same folders and macros. */
#include "drv.h"

/* The compiler and preprocessor flags of `in`'s host compile. */
void drv_pp_args(Drv *d, Tools *t, Vec *a, In *in) {
  const CuOpts *o = &d->o;
  bool c = in->kind == K_C;
  vec_push(a, (void *)(c ? t->cc : t->cxx));
  if (in->kind == K_CU) vec_push(a, xfmt("-std=%s", o->std));
  for (int i = 0; i < d->hflags.n; i++) vec_push(a, d->hflags.v[i]);
  if (in->kind == K_CU) {
    vec_push(a, "-D__CUDACC__");
    vec_push(a, "-D__NVCC__");
    vec_push(a, "-D__CUCC__");
    vec_push(a, "-D__CUCC_HOST__");
    if (o->rdc) vec_push(a, "-D__CUDACC_RDC__");
  }
  vec_push(a, xfmt("-I%s", d->incdir));
  for (int i = 0; i < o->incs.n; i++) vec_push(a, xfmt("-I%s", (char *)o->incs.v[i]));
  for (int i = 0; i < o->macros.n; i++) vec_push(a, o->macros.v[i]);
  if (in->kind == K_CU) {
    vec_push(a, "-include");
    vec_push(a, "cuda_runtime.h");
    vec_push(a, "-x");
    vec_push(a, "c++");
  }
}

/* -E: the source as the host pass sees it, to `out` or standard output */
int drv_preprocess(Drv *d, Tools *t, In *in, const char *out) {
  Vec a = {0};
  drv_pp_args(d, t, &a, in);
  vec_push(&a, "-E");
  vec_push(&a, (void *)in->path);
  if (out) {
    vec_push(&a, "-o");
    vec_push(&a, (void *)out);
  }
  return drv_run(t, &a);
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static char *swap_suffix(const char *p, const char *suf) {
  const char *b = base(p), *e = strrchr(b, '.');
  return e ? xfmt("%.*s%s", (int)(e - p), p, suf) : xfmt("%s%s", p, suf);
}

/* -MD's file: -MF, else -o's name with .d, else the input's name with .d
 * in the current folder (nvcc's rules) */
char *drv_depfile(Drv *d, In *in) {
  if (d->mf) return xstrdup(d->mf);
  if (d->out) return swap_suffix(d->out, ".d");
  return swap_suffix(base(in->path), ".d");
}

/* The dependency rule of `in`, whose object is `obj` (NULL: the input's
 * name with .o), into `depfile` (NULL: standard output). */
int drv_deps(Drv *d, Tools *t, In *in, const char *obj, const char *depfile) {
  Vec a = {0};
  drv_pp_args(d, t, &a, in);
  vec_push(&a, d->deps == 2 ? "-MM" : "-M");
  Vec targets = {0};
  if (d->mt.n) targets = d->mt;
  else vec_push(&targets, obj ? (char *)obj : swap_suffix(base(in->path), ".o"));
  for (int i = 0; i < targets.n; i++) {
    const char *tg = targets.v[i];
    vec_push(&a, "-MT");
    vec_push(&a, d->odir ? xfmt("%s/%s", d->odir, tg) : (char *)tg);
  }
  if (d->mp) vec_push(&a, "-MP");
  if (depfile) {
    vec_push(&a, "-MF");
    vec_push(&a, (void *)depfile);
  }
  vec_push(&a, (void *)in->path);
  return drv_run(t, &a);
}
