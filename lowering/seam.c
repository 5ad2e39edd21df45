/* seam.c: where a region may end without a barrier.
 *
 * A region runs for every warp of the block before the next one starts.
 * Ending one between two statements where the program has no barrier is
 * also a schedule a GPU may take (every warp runs up to that point, then
 * every warp goes on), so it is legal wherever the threads cannot tell:
 * the statements before it talk to no other thread (no atomics, warp
 * collectives, printf or calls: block-wide versions allow none of them)
 * and no thread has left the kernel (a return would need exit flags).
 *
 * It pays where it lets the work before it run block-wide: the grid-stride
 * loop of a reduction (`for (i = ...; i < n; i += stride) sum += in[i];`)
 * followed by shuffles and an atomic. Warp by warp, each warp walks 128
 * bytes at a time through the whole input, 32 warps of streams far apart;
 * block-wide, the block walks its 4 KB at a time and the loop's body is one
 * unit-stride lane loop over them. The values the loop leaves (`sum`) are
 * kept per thread across the seam, as across a barrier.
 *
 * So a seam goes after the last top-level loop over a run of lanes of a
 * run of statements whose first part could run block-wide and whose whole
 * could not. */
#include "lw.h"

static bool return_p(Node *n, void *c) { (void)c; return n->k == S_RETURN; }

static bool grid_loop(Node *n) { return n->k == S_FOR && run_loop_ok(n) && !ln(n)->has_jump; }

/* stmts[from, to): a run of statements between barriers */
static void seam_run(Obj *k, Vec *v, int from, int to) {
  if (bw_ok(k, false, v, from, to)) return;   /* (block-wide as it is) */
  int at = -1;
  for (int s = from + 1; s < to; s++)
    if (grid_loop(v->v[s - 1]) && bw_ok(k, false, v, from, s)) at = s;
  if (at > 0) ln(v->v[at])->seam = true;
}

static void seam_list(Obj *k, Vec *v) {
  for (int i = 0; i < v->n;) {
    if (ln(v->v[i])->sync || block_stmt(v->v[i])) {
      i++;
      continue;
    }
    int j = i;
    while (j < v->n && !ln(v->v[j])->sync && !block_stmt(v->v[j])) j++;
    seam_run(k, v, i, j);
    i = j;
  }
}

/* Seams of kernel k's top-level statements (after region.c's marks). */
bool lw_seams(Obj *k) {
  if (!k->body || k->body->k != S_BLOCK || (tid_dims(k) & 6u) || any_node(k->body, return_p, NULL)) return false;
  seam_list(k, &k->body->list);
  for (int i = 0; i < k->body->list.n; i++) ln(k->body)->seam |= ln(k->body->list.v[i])->seam;
  return ln(k->body)->seam;   /* (the body: it has seams) */
}
