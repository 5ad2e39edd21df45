/* uniform.c: divergence analysis of a kernel.
 *
 * Decides, for the lowering to warp-vectorized C:
 *  - which values vary across the lanes of a warp (LNode.vary on
 *    expressions, LObj.vary on variables): threadIdx varies; blockIdx,
 *    blockDim, parameters and constants do not; a variable varies if it is
 *    ever given a varying value, or assigned under control flow that only
 *    some lanes take, or its address escapes;
 *  - which if/loop/switch need a lane mask (LNode.vary: the condition varies;
 *    LNode.masked for loops and switches: lanes leave it separately);
 *  - which break/continue/return must clear lanes from masks instead of
 *    being C jumps (LNode.masked on the jump).
 * These depend on each other, so the walk repeats until nothing changes;
 * every flag only ever goes from false to true, so it terminates.
 * Device functions are lowered as scalar C run once per lane, so for them
 * only uses_tid and impure are computed. */
#include "lw.h"

typedef struct Ua {
  Obj *fn;
  Node *init, *inc;     /* walking this loop's init, or its increment */
  int incvd;            /* ... the depth around that loop */
  bool changed;
  Vec stk;      /* enclosing constructs (Node*), outermost first */
} Ua;

static void set(Ua *u, bool *f) {
  if (!*f) { *f = true; u->changed = true; }
}

/* The local variable an lvalue stores into, or NULL for memory. */
static Obj *root(Node *n) {
  n = bare(n);
  switch (n->k) {
  case N_VAR: return n->var->is_shared || n->var->is_global ? NULL : n->var;
  case N_INDEX: {
    Node *b = n->a;
    if (is_decay(b)) return root(b->a);
    return NULL;
  }
  case N_MEMBER: return n->post ? NULL : root(n->a);
  default: return NULL;
  }
}

/* ---- escape: &x and arrays used as pointers get lane-major storage ---- */
static void esc_e(Node *n);
/* the locals an address taken of lvalue n may point into: either arm of
 * `c ? a : b` (arrays of one type decay after the ?:), a comma's last */
static void esc_lv(Node *n) {
  n = bare(n);
  if (n->k == N_COND) { esc_lv(n->b); esc_lv(n->c); return; }
  if (n->k == N_COMMA) { esc_lv(n->b); return; }
  Obj *o = root(n);
  if (o) lo(o)->esc = true;
}
static void esc_list(Vec *v) {
  for (int i = 0; i < v->n; i++) esc_e(v->v[i]);
}
static void esc_e(Node *n) {
  if (!n) return;
  if (n->k == N_INDEX && is_decay(n->a)) {
    /* a[i]: the array itself does not escape */
    Node *b = n->a->a;
    if (b->k == N_VAR) { esc_e(n->b); return; }
    esc_e(b);
    esc_e(n->b);
    return;
  }
  if (is_decay(n) || (n->k == N_UN && n->op == OP_ADDR)) esc_lv(n->a);
  esc_e(n->a);
  esc_e(n->b);
  esc_e(n->c);
  esc_e(n->d);
  esc_list(&n->list);
}

/* ---- varying values ----
 * vd counts the constructs around a point whose lanes may differ (a
 * varying if, switch or ?:, a loop lanes leave one by one). A store there
 * makes a variable per lane only if such a construct lies between the
 * variable's declaration and the store (LObj.vdecl): a value set inside a
 * divergent branch, and used only there, is the same in every lane that
 * runs the branch (`for (int k = 0; k < 5; k++)` inside `if (t < 12)`). */
static bool vary_e(Ua *u, Node *n, int vd);

static bool vary_list(Ua *u, Vec *v, int vd) {
  bool r = false;
  for (int i = 0; i < v->n; i++) r |= vary_e(u, v->v[i], vd);
  return r;
}

/* a store to lv of a value that varies (v), at depth vd. A loop's
 * increment runs in every lane still in the loop, all at the same
 * iteration: for a variable its init declares (whose scope is the loop),
 * the loop's own divergence does not count. */
static void store(Ua *u, Node *lv, bool v, int vd) {
  Obj *o = root(lv);
  if (!o) return;
  if (u->inc && lo(o)->dloop == u->inc) vd = u->incvd;
  if (v || vd > lo(o)->vdecl) set(u, &lo(o)->vary);
}

/* the address of a __shared__ or global variable's part (&s, &s.f,
 * &s[i]): as uniform as its indices, whatever the variable's value (whose
 * escaping address makes it varying) */
static bool mem_lv(Node *n) {
  n = bare(n);
  if (n->k == N_VAR) return n->var->is_shared || n->var->is_global;
  if (n->k == N_MEMBER && !n->post) return mem_lv(n->a);
  if (n->k == N_INDEX && is_decay(n->a)) return mem_lv(n->a->a);
  return false;
}

static bool addr_vary(Ua *u, Node *n, int vd) {
  n = bare(n);
  if (n->k == N_MEMBER) return addr_vary(u, n->a, vd);
  if (n->k == N_INDEX) {
    bool v = vary_e(u, n->b, vd);
    return addr_vary(u, n->a->a, vd) || v;
  }
  return false;
}

static bool vary_e(Ua *u, Node *n, int vd) {
  if (!n) return false;
  bool v = false;
  switch (n->k) {
  case N_UN:
    if (n->op == OP_ADDR && mem_lv(n->a)) v = addr_vary(u, n->a, vd);
    else v = vary_e(u, n->a, vd);
    break;
  case N_NUM: case N_FNUM: case N_STR: v = false; break;
  case N_VAR: v = lo(n->var)->vary; break;
  case N_BUILTIN: v = n->bk == B_TID; break;
  case N_CALL: {
    v = vary_list(u, &n->list, vd);
    if (ck_per_thread(n->ck) || n->ck == C_ATOMIC || n->ck == C_WARP) v = true;
    if (n->ck == C_FUNC && (lo(n->fn)->uses_tid || lo(n->fn)->impure)) v = true;
    break;
  }
  case N_ASSIGN: {
    bool r = vary_e(u, n->b, vd);
    bool l = vary_e(u, n->a, vd);   /* indices in the target */
    store(u, n->a, r || l, vd);
    v = vary_e(u, n->a, vd) || r;
    break;
  }
  case N_INCDEC:
    v = vary_e(u, n->a, vd);
    store(u, n->a, v, vd);
    v = vary_e(u, n->a, vd);
    break;
  case N_COND: {
    /* ?: is control flow: a branch taken by some lanes only */
    bool c = vary_e(u, n->a, vd);
    v = c;   /* every operand is visited: no short-circuit */
    v |= vary_e(u, n->b, vd + c);
    v |= vary_e(u, n->c, vd + c);
    break;
  }
  case N_LOG: {
    bool c = vary_e(u, n->a, vd);
    v = c;
    v |= vary_e(u, n->b, vd + c);
    break;
  }
  default:
    v = vary_e(u, n->a, vd);
    v |= vary_e(u, n->b, vd);
    v |= vary_e(u, n->c, vd);
    v |= vary_list(u, &n->list, vd);
  }
  if (v) set(u, &ln(n)->vary);
  return ln(n)->vary;
}

/* A statement that varies runs once per lane: any variable it stores to
 * must then be per lane too, even if the stored value is uniform. */
static int stores_vary_f(Node *n, void *c) {
  if (n->k == N_ASSIGN || n->k == N_INCDEC) store(c, n->a, true, 0);
  return W_GO;
}

static bool vary_full(Ua *u, Node *n, int vd) {
  bool v = vary_e(u, n, vd);
  if (v) walk(n, stores_vary_f, u);
  return v;
}

static bool kind_vary(Node *c) { return ln(c)->vary || ln(c)->masked; }

/* A jump is masked if any construct it leaves runs under a lane mask. */
static void jump(Ua *u, Node *n) {
  /* with barriers, a returned thread must stay out of later regions: its
   * return always clears lanes, which are then kept per thread */
  bool m = n->k == S_RETURN && u->fn->has_sync;
  for (int i = u->stk.n - 1; i >= 0; i--) {
    Node *c = u->stk.v[i];
    if (c->k == S_IF ? ln(c)->vary : kind_vary(c)) m = true;
    if (n->k != S_RETURN && c == n->target) break;
  }
  if (!m) return;
  set(u, &ln(n)->masked);
  if (n->k == S_BREAK) set(u, &ln(n->target)->masked);
  if (n->k == S_CONTINUE) {
    set(u, &ln(n->target)->masked);
    set(u, &ln(n->target)->has_cont);
  }
}

static void uwalk(Ua *u, Node *n, int vd);

static void walk_list(Ua *u, Vec *v, int vd) {
  for (int i = 0; i < v->n; i++) uwalk(u, v->v[i], vd);
}

static void uwalk(Ua *u, Node *n, int vd) {
  if (!n) return;
  switch (n->k) {
  case S_BLOCK: walk_list(u, &n->list, vd); break;
  case S_DECL: {
    Obj *o = n->var;
    lo(o)->vdecl = vd;
    lo(o)->dloop = u->init;
    if (vary_full(u, n->a, vd) || lo(o)->esc) set(u, &lo(o)->vary);
    break;
  }
  case S_EXPR: vary_full(u, n->a, vd); break;
  case S_RETURN: vary_full(u, n->a, vd); jump(u, n); break;
  case S_BREAK: case S_CONTINUE: jump(u, n); break;
  case S_IF: {
    if (vary_full(u, n->a, vd)) set(u, &ln(n)->vary);
    vec_push(&u->stk, n);
    uwalk(u, n->b, vd + ln(n)->vary);
    uwalk(u, n->c, vd + ln(n)->vary);
    u->stk.n--;
    break;
  }
  case S_FOR: case S_WHILE: case S_DO: {
    Node *si = u->init, *sc = u->inc;
    int sv = u->incvd;
    u->init = n;
    uwalk(u, n->a, vd);     /* init */
    u->init = si;
    if (vary_full(u, n->b, vd + ln(n)->masked)) set(u, &ln(n)->vary);
    int in = vd + kind_vary(n);
    vec_push(&u->stk, n);
    uwalk(u, n->d, in);
    u->stk.n--;
    u->inc = n;
    u->incvd = vd;
    vary_full(u, n->c, in);  /* increment */
    u->inc = sc;
    u->incvd = sv;
    /* a loop whose increment varies must run under a mask so that
     * continue still reaches the increment */
    if (n->c && ln(n->c)->vary) set(u, &ln(n)->masked);
    break;
  }
  case S_SWITCH: {
    if (vary_full(u, n->a, vd)) set(u, &ln(n)->vary);
    vec_push(&u->stk, n);
    uwalk(u, n->d, vd + kind_vary(n));
    u->stk.n--;
    break;
  }
  case S_SYNC:
    vary_e(u, n->a, vd);
    if (n->var && vd > lo(n->var)->vdecl) set(u, &lo(n->var)->vary);
    break;
  default: break;
  }
}

/* has_jump: the statement contains a masked jump that leaves it (so masks
 * of the enclosing levels may have lost lanes after it). `in` holds the
 * loops and switches inside the statement, whose own jumps stay inside. */
static bool jumps(Node *n, Vec *in) {
  if (!n) return false;
  bool r = false;
  int mark = in->n;
  switch (n->k) {
  case S_RETURN: r = ln(n)->masked; break;
  case S_BREAK: case S_CONTINUE:
    if (ln(n)->masked) {
      r = true;
      for (int i = 0; i < in->n; i++)
        if (in->v[i] == n->target) r = false;
    }
    break;
  case S_BLOCK:
    for (int i = 0; i < n->list.n; i++) r |= jumps(n->list.v[i], in);
    break;
  case S_SWITCH:
    vec_push(in, n);
    r = jumps(n->d, in);
    break;
  case S_IF:
    r = jumps(n->b, in);
    r |= jumps(n->c, in);
    break;
  case S_FOR: case S_WHILE: case S_DO:
    r = jumps(n->a, in);
    vec_push(in, n);
    r |= jumps(n->d, in);
    break;
  default: break;
  }
  in->n = mark;
  ln(n)->has_jump = r;
  return r;
}

/* uses_tid / impure of a function, from its body */
static void effects(Obj *fn, Node *n) {
  if (!n) return;
  switch (n->k) {
  case N_BUILTIN: lo(fn)->uses_tid = true; break;
  case N_CALL:
    if (ck_per_thread(n->ck) || n->ck == C_ATOMIC) lo(fn)->impure = true;
    if (n->ck == C_LAUNCH || n->ck == C_DRT) lo(fn)->uses_tid = true;   /* the runtime is told the thread */
    if (n->ck == C_WARP) lo(fn)->uses_tid = true;
    if (n->ck == C_FUNC && n->fn != fn) {
      lo(fn)->uses_tid |= lo(n->fn)->uses_tid;
      lo(fn)->impure |= lo(n->fn)->impure;
      lo(fn)->waits |= lo(n->fn)->waits;
    }
    if (n->ck == C_BUILTIN && !strcmp(n->name, "cu_fence")) lo(fn)->impure = true;
    if (is_warp_wait(n)) lo(fn)->impure = lo(fn)->waits = true;
    break;
  case N_ASSIGN: case N_INCDEC:
    if (!root(n->a)) lo(fn)->impure = true;
    break;
  default: break;
  }
  effects(fn, n->a);
  effects(fn, n->b);
  effects(fn, n->c);
  effects(fn, n->d);
  for (int i = 0; i < n->list.n; i++) effects(fn, n->list.v[i]);
}

void lw_uniform(Obj *fn) {
  for (int i = 0; i < fn->locals.n; i++) lo(fn->locals.v[i])->esc = ((Obj *)fn->locals.v[i])->addr_taken;
  /* -rdc: a device function with external linkage (Obj.key) has a fixed
   * ABI, the thread indices always; one defined elsewhere may do anything */
  if (fn->key && !fn->is_kernel) {
    lo(fn)->uses_tid = true;
    lo(fn)->impure |= !fn->has_body;
  }
  effects(fn, fn->body);
  if (!kernelish(fn)) return;
  esc_e(fn->body);
  for (int i = 0; i < fn->locals.n; i++) {
    Obj *o = fn->locals.v[i];
    if (lo(o)->esc) lo(o)->vary = true;
  }
  /* expressions in statements */
  Ua u = {0};
  u.fn = fn;
  do {
    u.changed = false;
    u.stk.n = 0;
    uwalk(&u, fn->body, 0);
  } while (u.changed);
  Vec in = {0};
  jumps(fn->body, &in);
  free(in.v);
}
