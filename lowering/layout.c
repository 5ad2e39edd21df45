/* layout.c: where a kernel's data lives, and what it costs.
 * C names of locals, the parameter buffer's offsets (the runtime packs
 * arguments there, cucc_rt.h's cu_kernel), static shared memory offsets,
 * the per-thread lane storage of values kept across barriers, and the
 * register estimate a GPU compiler would report. */
#include "lw.h"

static bool c_only_keyword(const char *s) {
  static const char *const kw[] = {"restrict", "_Bool", "_Complex", "_Imaginary", "_Alignas",
                                   "_Alignof", "_Atomic", "_Generic", "_Noreturn", "_Static_assert",
                                   "_Thread_local", NULL};
  for (int i = 0; kw[i]; i++)
    if (!strcmp(s, kw[i])) return true;
  return false;
}

/* One C name per local of the function: two variables of one name in
 * sibling scopes may both be kept at block level (barrier kernels). Names
 * we introduce start with '_' (or cu_), so user names that do are renamed. */
void lw_name_locals(Obj *fn) {
  for (int i = 0; i < fn->locals.n; i++) {
    Obj *o = fn->locals.v[i];
    char *b = o->name[0] == '_' || c_only_keyword(o->name) || !strncmp(o->name, "cu_", 3) ? xfmt("u%s", o->name) : o->name;
    char *cn = b;
    for (int j = 0, k = 1; j < i; j++)
      if (!strcmp(lo(fn->locals.v[j])->cname, cn)) {
        cn = xfmt("%s_%d", b, k++);
        j = -1;
      }
    lo(o)->cname = cn;
  }
}

static int64_t align_up(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

/* The storage of one warp's copy of a varying variable, as a C type:
 * T[32] for scalars and lane-major arrays, T[..][32] for element-major. */
Type *warp_type(Obj *o) {
  Type *t = o->ty;
  if (t->kind != TY_ARRAY || lo(o)->esc) return arr_of(t, 32);
  Type *c = memcpy(xcalloc(1, sizeof *c), t, sizeof *t);
  Type *p = c;
  while (p->base->kind == TY_ARRAY) {
    p->base = memcpy(xcalloc(1, sizeof *p), p->base, sizeof *p);
    p = p->base;
  }
  p->base = arr_of(p->base, 32);
  return c;
}

/* Registers per thread, estimated from the lowered kernel the way a GPU
 * compiler would spend them: each live scalar of a thread takes one 32-bit
 * register per 4 bytes (varying and uniform alike: on a GPU every thread
 * holds its own copy), small local arrays stay in registers (larger ones go
 * to local memory), plus a base for thread indices, addresses and
 * temporaries. Capped by -maxrregcount; __launch_bounds__ caps it at run
 * time against the modelled register file. */
static int estimate_regs(Obj *k, int maxrreg) {
  int r = 10;
  for (int i = 0; i < k->locals.n; i++) {
    Obj *o = k->locals.v[i];
    if (o->is_shared) continue;
    int64_t words = (o->ty->size + 3) / 4;
    if (o->ty->kind == TY_ARRAY && o->ty->size > 64) words = 1;   /* local memory */
    r += (int)words;
  }
  if (k->has_sync) r += 2;
  if (r > 255) r = 255;
  if (maxrreg > 0 && r > maxrreg) r = maxrreg;
  return r;
}

void lw_layout(Kern *K, int maxrreg) {
  Obj *k = K->k;
  lw_name_locals(k);
  k->nregs = estimate_regs(k, maxrreg);
  /* parameters: packed by the runtime at these offsets */
  int64_t off = 0;
  K->palign = 8;
  for (int i = 0; i < k->params.n; i++) {
    Obj *p = k->params.v[i];
    int a = p->ty->align > 0 ? p->ty->align : 1;
    if (a > K->palign) K->palign = a;
    off = align_up(off, a);
    lo(p)->off = off;
    off += p->ty->size;
  }
  K->pbytes = k->param_bytes = off;
  /* static shared memory */
  int64_t soff = 0;
  for (int i = 0; i < k->shared.n; i++) {
    Obj *s = k->shared.v[i];
    if (s->is_extern_shared) continue;
    int a = s->ty->align > 16 ? s->ty->align : 16;
    soff = align_up(soff, a);
    lo(s)->off = soff;
    soff += s->ty->size;
  }
  k->smem_static = soff;
}

/* per-thread storage: the cross values and the exit flags (after regions) */
void lw_lanes(Kern *K) {
  K->lane_bytes = 0;
  for (int i = 0; i < K->cross.n; i++) K->lane_bytes += ((Obj *)K->cross.v[i])->ty->size;
  if (K->exits) K->lane_bytes += 1;
}
