/* fold.c: conditions that are constants once a template is instantiated.
 *
 * A template's `if (blockSize >= 512 && tid < 256)`, `if (nIsPow2)` or
 * CUB's `IS_FULL_TILE ? 31 : valid_items - 1` reach the IR with literals
 * where the parameters stood. Left alone, the dead side is code to every
 * later pass: shapes call a value varying where the side taken is
 * uniform, and each version of each region prints the dead side for the
 * C compiler to delete again (cuda-samples' reduction: 213
 * instantiations, most of their code dead). This pass, first of all,
 * replaces each if, ?:, && and || whose condition is an integer constant
 * expression by the side it takes. Nothing here reads a variable: a
 * constant is literals, casts and operators. */
#include "lw.h"

/* integer types whose width and signedness do not depend on the target
 * (plain char does: arm64's is unsigned) */
static bool fd_int(Type *t) {
  return (t->kind == TY_BOOL || (t->kind >= TY_SCHAR && t->kind <= TY_ULLONG)) && t->size >= 1 && t->size <= 8;
}

static bool fd_uns(Type *t) {
  switch (t->kind) {
  case TY_BOOL: case TY_UCHAR: case TY_USHORT: case TY_UINT: case TY_ULONG: case TY_ULLONG: return true;
  default: return false;
  }
}

/* v converted to t, as C converts an integer */
static int64_t fd_conv(Type *t, uint64_t v) {
  if (t->kind == TY_BOOL) return v != 0;
  if (t->size == 8) return (int64_t)v;
  int bits = (int)t->size * 8;
  v &= (1ull << bits) - 1;
  if (!fd_uns(t) && (v >> (bits - 1))) v |= ~0ull << bits;
  return (int64_t)v;
}

static bool fd_eval(Node *n, int64_t *v);

static bool fd_bin(Node *n, int64_t *v) {
  int64_t x, y;
  Type *t = n->a->ty;
  if (!fd_int(t) || !fd_int(n->b->ty) || !fd_eval(n->a, &x) || !fd_eval(n->b, &y)) return false;
  bool u = fd_uns(t);
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  /* both sides of an arithmetic or comparison have one type after clang's
   * conversions; where they do not, this is not the place to guess */
  if (n->op != OP_SHL && n->op != OP_SHR && (t->kind != n->b->ty->kind)) return false;
  switch (n->op) {
  case OP_ADD: *v = fd_conv(n->ty, ux + uy); return true;
  case OP_SUB: *v = fd_conv(n->ty, ux - uy); return true;
  case OP_MUL: *v = fd_conv(n->ty, ux * uy); return true;
  case OP_DIV: case OP_MOD:
    if (y == 0 || (!u && x == INT64_MIN && y == -1)) return false;
    if (u) *v = fd_conv(n->ty, n->op == OP_DIV ? ux / uy : ux % uy);
    else *v = fd_conv(n->ty, (uint64_t)(n->op == OP_DIV ? x / y : x % y));
    return true;
  case OP_SHL: case OP_SHR:
    if (y < 0 || y >= t->size * 8 || (!u && x < 0)) return false;
    *v = fd_conv(n->ty, n->op == OP_SHL ? ux << y : ux >> y);
    return true;
  case OP_BAND: *v = fd_conv(n->ty, ux & uy); return true;
  case OP_BOR: *v = fd_conv(n->ty, ux | uy); return true;
  case OP_BXOR: *v = fd_conv(n->ty, ux ^ uy); return true;
  case OP_LT: *v = u ? ux < uy : x < y; return true;
  case OP_GT: *v = u ? ux > uy : x > y; return true;
  case OP_LE: *v = u ? ux <= uy : x <= y; return true;
  case OP_GE: *v = u ? ux >= uy : x >= y; return true;
  case OP_EQ: *v = x == y; return true;
  case OP_NE: *v = x != y; return true;
  default: return false;
  }
}

/* n's value, where n is an integer constant expression */
static bool fd_eval(Node *n, int64_t *v) {
  int64_t x;
  if (!n || !n->ty || !fd_int(n->ty)) return false;
  switch (n->k) {
  case N_NUM: *v = fd_conv(n->ty, (uint64_t)n->ival); return true;
  case N_CAST:
    if (!fd_int(n->a->ty) || !fd_eval(n->a, &x)) return false;
    *v = fd_conv(n->ty, (uint64_t)x);
    return true;
  case N_UN:
    if (!fd_int(n->a->ty) || !fd_eval(n->a, &x)) return false;
    switch (n->op) {
    case OP_PLUS: *v = fd_conv(n->ty, (uint64_t)x); return true;
    case OP_NEG: *v = fd_conv(n->ty, -(uint64_t)x); return true;
    case OP_BNOT: *v = fd_conv(n->ty, ~(uint64_t)x); return true;
    case OP_LNOT: *v = x == 0; return true;
    default: return false;
    }
  case N_BIN: return fd_bin(n, v);
  case N_LOG:   /* the right side only where the left does not decide */
    if (!fd_eval(n->a, &x)) return false;
    if (n->op == OP_LAND && !x) return *v = 0, true;
    if (n->op == OP_LOR && x) return *v = 1, true;
    if (!fd_eval(n->b, &x)) return false;
    *v = x != 0;
    return true;
  case N_COND:
    if (!fd_eval(n->a, &x)) return false;
    return fd_eval(x ? n->b : n->c, v);
  default: return false;
  }
}

static Node *fd_num(Node *at, int64_t v) {
  Node *n = lw_copy(at);
  n->k = N_NUM;
  n->a = n->b = n->c = n->d = NULL;
  n->list = (Vec){0};
  n->ival = v;
  return n;
}

static Node *fd(Node *n) {
  if (!n) return NULL;
  n->a = fd(n->a);
  n->b = fd(n->b);
  n->c = fd(n->c);
  n->d = fd(n->d);
  for (int i = 0; i < n->list.n; i++) n->list.v[i] = fd(n->list.v[i]);
  int64_t x;
  switch (n->k) {
  case S_IF: {
    if (!fd_eval(n->a, &x)) return n;
    /* (no case label is inside: parse.c refuses one below a switch's top;
     * a declaration alone as the side taken keeps the if, its scope) */
    Node *take = x ? n->b : n->c;
    if (take && (take->k == S_DECL || (take->k == S_BLOCK && take->post))) return n;
    if (take) return take;
    Node *e = lw_copy(n);   /* (an empty statement where the if was) */
    e->k = S_NULL;
    e->a = e->b = e->c = e->d = NULL;
    return e;
  }
  case N_COND: {
    if (!fd_eval(n->a, &x)) return n;
    Node *take = x ? n->b : n->c;
    return take->ty && take->ty->kind == n->ty->kind && take->ty->size == n->ty->size ? take : n;
  }
  case N_LOG:
    if (fd_eval(n, &x)) return fd_num(n, x);
    if (!fd_eval(n->a, &x)) return n;
    /* `1 && c` is c where c is already a bool (a comparison, in C++) */
    return n->b->ty->kind == TY_BOOL && n->ty->kind == TY_BOOL ? n->b : n;
  default: return n;
  }
}

void lw_fold(Obj *f) {
  if (f->body) f->body = fd(f->body);
}
