/* eval.c: the one constant evaluator of the IR.
 *
 * The value of an integer constant expression as C computes it: literals
 * (sizeof, alignof, enumerators and constexpr values reach the IR as
 * literals: parse.c asks clang), warpSize, casts between integer types
 * (a floating literal's too), unary and binary arithmetic, shifts,
 * comparisons, && || and ?:. Where C has no value (division by zero,
 * signed overflow, a shift by a negative count or by the width or more, a
 * negative value shifted left, a floating value out of the integer's
 * range) there is no constant: cucc computes nothing undefined itself.
 * A variable is a constant only where the caller says (ev_intv: an
 * inlined loop's counter in sroa.c, a variable's one definition in
 * build.c), or where it is a const function-scope static with a constant
 * initializer.
 *
 * Frontend and lowering passes ask it (lowering/fold.c: conditions taken;
 * shape.c: strides, splits of a warp; build.c: induction steps, trip
 * counts; bound.c: divisors and masks; walk.c: divisions that cannot
 * trap; print.c: a shuffle's width; frontend/sroa.c: constant locals and
 * dead loops; inline.c: constant arguments), so a constant is one
 * whichever pass meets it. */
#include "cucc.h"

/* an integer type as evaluated: its width, signedness; bool converts by
 * != 0; plain char's signedness is the target's (unsigned on arm64), so
 * only a value that is the same either way (0..127) converts to it */
typedef struct Ity { int bits; bool uns, isbool, ischar; } Ity;

static bool ity(Type *t, Ity *o) {
  if (!t || t->kind < TY_BOOL || t->kind > TY_ULLONG || t->size < 1 || t->size > 8) return false;
  *o = (Ity){(int)t->size * 8, false, t->kind == TY_BOOL, t->kind == TY_CHAR};
  switch (t->kind) {
  case TY_BOOL: case TY_UCHAR: case TY_USHORT: case TY_UINT: case TY_ULONG: case TY_ULLONG: o->uns = true; break;
  default: break;
  }
  return true;
}

/* the integer promotions: bool, char and short are int (4 bytes on every
 * target cucc builds for) */
static Ity promote(Ity t) { return t.bits < 32 ? (Ity){32, false, false, false} : t; }

/* the usual arithmetic conversions, by width and signedness (long and
 * long long of one width are one type here) */
static Ity common(Ity a, Ity b) {
  a = promote(a), b = promote(b);
  if (a.uns == b.uns) return a.bits >= b.bits ? a : b;
  Ity u = a.uns ? a : b, s = a.uns ? b : a;
  return u.bits >= s.bits ? u : s;
}

static bool same_ity(Ity a, Ity b) { return a.bits == b.bits && a.uns == b.uns && a.isbool == b.isbool && a.ischar == b.ischar; }

/* a signed type's bounds */
static int64_t tmin(Ity t) { return t.bits == 64 ? INT64_MIN : -(INT64_C(1) << (t.bits - 1)); }
static int64_t tmax(Ity t) { return t.bits == 64 ? INT64_MAX : (INT64_C(1) << (t.bits - 1)) - 1; }
static double p2(int k) { return k == 64 ? 18446744073709551616.0 : (double)(UINT64_C(1) << k); }

/* v (any integer's value, as its low 64 bits) converted to t: modulo 2^bits,
 * also to a signed type (implementation-defined in C; what gcc and clang,
 * the device C's compilers, do); false only for plain char */
static bool conv(Ity t, int64_t v, int64_t *o) {
  if (t.isbool) return *o = v != 0, true;
  if (t.ischar) return v >= 0 && v <= 127 && (*o = v, true);
  if (t.bits == 64) return *o = v, true;
  uint64_t u = (uint64_t)v & ((UINT64_C(1) << t.bits) - 1);
  if (!t.uns && (u >> (t.bits - 1))) u |= ~UINT64_C(0) << t.bits;
  *o = (int64_t)u;
  return true;
}

/* r, a signed result computed exactly, if t holds it (else C has none) */
static bool fits(Ity t, int64_t r, int64_t *o) {
  if (r < tmin(t) || r > tmax(t)) return false;
  *o = r;
  return true;
}

typedef struct Ev { EvVar *var; void *ctx; int depth; } Ev;

static bool ev(Ev *e, Node *n, int64_t *v);

/* x op y, both of type t (after the conversions): C's value, or false */
static bool arith(Ity t, Op op, int64_t x, int64_t y, int64_t *v) {
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  int64_t r;
  if (t.uns) {
    switch (op) {
    case OP_ADD: return conv(t, (int64_t)(ux + uy), v);
    case OP_SUB: return conv(t, (int64_t)(ux - uy), v);
    case OP_MUL: return conv(t, (int64_t)(ux * uy), v);
    case OP_DIV: return uy && conv(t, (int64_t)(ux / uy), v);
    case OP_MOD: return uy && conv(t, (int64_t)(ux % uy), v);
    default: break;
    }
  } else {
    switch (op) {
    case OP_ADD: return !__builtin_add_overflow(x, y, &r) && fits(t, r, v);
    case OP_SUB: return !__builtin_sub_overflow(x, y, &r) && fits(t, r, v);
    case OP_MUL: return !__builtin_mul_overflow(x, y, &r) && fits(t, r, v);
    case OP_DIV: case OP_MOD:   /* (the quotient of MIN / -1 overflows: then neither has a value) */
      if (y == 0 || (x == tmin(t) && y == -1)) return false;
      return fits(t, op == OP_DIV ? x / y : x % y, v);
    default: break;
    }
  }
  switch (op) {   /* (no overflow: the operands' bits, extended alike) */
  case OP_BAND: return conv(t, x & y, v);
  case OP_BOR: return conv(t, x | y, v);
  case OP_BXOR: return conv(t, x ^ y, v);
  case OP_LT: return *v = t.uns ? ux < uy : x < y, true;
  case OP_GT: return *v = t.uns ? ux > uy : x > y, true;
  case OP_LE: return *v = t.uns ? ux <= uy : x <= y, true;
  case OP_GE: return *v = t.uns ? ux >= uy : x >= y, true;
  case OP_EQ: return *v = x == y, true;
  case OP_NE: return *v = x != y, true;
  default: return false;
  }
}

static bool bin(Ev *e, Node *n, Ity rt, int64_t *v) {
  Ity ta, tb;
  int64_t x, y, r;
  if (!ity(n->a->ty, &ta) || !ity(n->b->ty, &tb) || !ev(e, n->a, &x) || !ev(e, n->b, &y)) return false;
  if (n->op == OP_SHL || n->op == OP_SHR) {
    Ity t = promote(ta);
    if (!same_ity(t, rt)) return false;   /* (a node a pass built of other types: not the place to guess) */
    if (y < 0 || y >= t.bits || !conv(t, x, &x)) return false;   /* (a count above INT64_MAX reads negative) */
    if (t.uns) return conv(t, n->op == OP_SHL ? (int64_t)((uint64_t)x << y) : (int64_t)((uint64_t)x >> y), v);
    if (n->op == OP_SHR) return *v = x >> y, true;   /* (a negative one: implementation-defined, arithmetic in gcc and clang) */
    if (x < 0 || x > (tmax(t) >> y)) return false;
    return *v = x << y, true;
  }
  Ity t = common(ta, tb);
  if (!conv(t, x, &x) || !conv(t, y, &y)) return false;
  if (op_cmp(n->op)) return arith(t, n->op, x, y, &r) && conv(rt, r, v);
  if (!same_ity(t, rt)) return false;   /* (as above) */
  return arith(t, n->op, x, y, v);
}

static bool ev(Ev *e, Node *n, int64_t *v) {
  Ity t, ta;
  int64_t x;
  if (!n || !ity(n->ty, &t) || e->depth > 4096) return false;
  e->depth++;
  bool ok = false;
  switch (n->k) {
  case N_NUM: ok = t.ischar ? (*v = n->ival, true) : conv(t, n->ival, v); break;   /* (a char literal: clang's value) */
  case N_BUILTIN: ok = n->bk == B_WSIZE && conv(t, 32, v); break;
  case N_VAR: {   /* the caller's value, or a const static's initializer (a constant parse.c checked) */
    Obj *o = n->var;
    ok = ((e->var && e->var(o, &x, e->ctx)) ||
          (o->dev_def && o->dev_init && o->ty->is_const && !o->ty->is_volatile && ev(e, o->dev_init, &x))) &&
         conv(t, x, v);
    break;
  }
  case N_CAST: {
    Node *a = n->a, *f = a->k == N_UN && a->op == OP_NEG ? a->a : a;
    if (f->k == N_FNUM && a->ty && a->ty->kind >= TY_FLOAT && a->ty->kind <= TY_LDOUBLE) {
      /* a floating literal (or its negation) cast: truncated, where the
       * integer holds that */
      double d = f == a ? f->fval : -f->fval, lo = t.uns ? -1 : -p2(t.bits - 1) - 1, hi = t.uns ? p2(t.bits) : p2(t.bits - 1);
      if (t.isbool) ok = (*v = d != 0, true);
      else if (t.ischar) ok = d > -1 && d < 128 && (*v = (int64_t)d, true);
      else if (d > lo && d < hi) ok = (*v = t.uns ? (int64_t)(uint64_t)d : (int64_t)d, true);
      break;
    }
    ok = ev(e, a, &x) && conv(t, x, v);
    break;
  }
  case N_UN: {
    if (n->op == OP_DEREF || n->op == OP_ADDR || !ity(n->a->ty, &ta) || !ev(e, n->a, &x)) break;
    if (n->op == OP_LNOT) { ok = conv(t, x == 0, v); break; }
    Ity p = promote(ta);
    if (!same_ity(p, t) || !conv(p, x, &x)) break;   /* (as in bin) */
    switch (n->op) {
    case OP_PLUS: ok = conv(t, x, v); break;
    case OP_NEG: ok = arith(t, OP_SUB, 0, x, v); break;
    case OP_BNOT: ok = conv(t, ~x, v); break;
    default: break;
    }
    break;
  }
  case N_BIN: ok = bin(e, n, t, v); break;
  case N_LOG:   /* the right side only where the left does not decide */
    if (!ev(e, n->a, &x)) break;
    if ((n->op == OP_LAND && !x) || (n->op == OP_LOR && x)) ok = conv(t, n->op == OP_LOR, v);
    else ok = ev(e, n->b, &x) && conv(t, x != 0, v);
    break;
  case N_COND:   /* the arm taken only */
    ok = ev(e, n->a, &x) && ev(e, x ? n->b : n->c, &x) && conv(t, x, v);
    break;
  default: break;
  }
  e->depth--;
  return ok;
}

bool ev_int(Node *n, int64_t *v) {
  Ev e = {0};
  return ev(&e, n, v);
}

bool ev_intv(Node *n, EvVar *var, void *ctx, int64_t *v) {
  Ev e = {var, ctx, 0};
  return ev(&e, n, v);
}

/* literals and operators only, nothing read or done even in an arm not
 * taken: a copy of it is the same constant anywhere */
static bool lit(Node *n) {
  if (!n) return true;
  switch (n->k) {
  case N_NUM: case N_FNUM: return true;
  case N_BUILTIN: return n->bk == B_WSIZE;
  case N_UN: if (n->op == OP_DEREF || n->op == OP_ADDR) return false; /* fall through */
  case N_CAST: case N_BIN: case N_LOG: case N_COND: return lit(n->a) && lit(n->b) && lit(n->c);
  default: return false;
  }
}

bool ev_const(Node *n, int64_t *v) { return lit(n) && ev_int(n, v); }
