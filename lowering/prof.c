/* prof.c: CUCC_PROFILE's divergent branch sites. Counting happens in the
 * general version of each region (the one CUCC_PROFILE runs): each
 * divergent if, and each loop whose condition varies, gets a site, numbered
 * in print order; the kernel's tables list their files and lines. */
#include "lw.h"

static void sites(Kern *K, W *w) {
  if (!w) return;
  if ((w->k == W_IFD || (w->k == W_LOOPD && w->pa)) && !w->noprof) {
    w->psite = K->psites.n;
    vec_push(&K->psites, w->n);
  }
  W *sub[] = {w->a, w->b, w->c, w->d, w->init, w->ch, w->tall, w->eall, w->trun, w->erun, w->tm, w->em,
              w->body, w->ih, w->inc, w->dh, w->sw};
  /* (a W_IFD's branches print after its own count; a loop's init before it) */
  for (size_t i = 0; i < sizeof sub / sizeof *sub; i++) sites(K, sub[i]);
  for (int i = 0; i < w->ws.n; i++) sites(K, w->ws.v[i]);
}

static void blk(Kern *K, Blk *b) {
  if (!b) return;
  if (b->k == BK_REGION) {
    Ver *g = b->r->vers.v[b->r->vers.n - 1];
    sites(K, g->body);
  }
  for (int i = 0; i < b->items.n; i++) blk(K, b->items.v[i]);
  Blk *sub[] = {b->init, b->then, b->els, b->body, b->inc};
  for (int i = 0; i < 5; i++) blk(K, sub[i]);
}

void lw_prof(Kern *K) {
  K->psites.n = 0;
  if (K->k->is_kernel) blk(K, K->body);
}
