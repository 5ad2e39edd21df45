/* ptx.c: inline PTX (asm("..." : outputs : inputs)) translated to the IR.
 *
 * libclang shows an asm statement only as a cursor with its operand
 * expressions as children (outputs, then inputs), so its template and
 * constraints are read from its tokens. The template is split into
 * instructions; each becomes IR statements on the operands (%0..%n),
 * registers it declares (.reg), immediates and special registers:
 *  - special registers (%laneid, %warpid, %lanemask_*, %tid, %ntid, %ctaid,
 *    %nctaid, %smid, %nsmid, %clock, %clock64, %globaltimer) are read from
 *    the thread's indices or the runtime;
 *  - shfl.sync, vote.sync, activemask, match and redux are the warp
 *    collectives they are in CUDA C, so they run as those do;
 *  - loads and stores (any space, any cache hint), atomics and reductions,
 *    fences and barriers are the IR's own;
 *  - the rest (integer and floating arithmetic, bit fields, byte
 *    permutes, SIMD video instructions...) call one helper of cucc_dev.h
 *    each, cu_ptx_<op>_<type>, pure C.
 * Anything else is refused at the statement's line with its text. */
#include "fe.h"
#include <ctype.h>

static void putc_(Buf *b, char c) { buf_put(b, &c, 1); }

typedef struct Reg { char *name; Obj *o; } Reg;

typedef struct Asm {
  Fe *p;
  CXCursor c;
  Loc at;                  /* c's position: every node's */
  Node *out;               /* the S_BLOCK being built */
  Vec ops;                 /* Node*: operand expressions, %0.. */
  Vec cons;                /* char*: their constraints */
  Vec regs;                /* Reg*: .reg declarations in scope */
  bool bad;
} Asm;

static void bad(Asm *a, const char *insn) {
  if (!a->bad) {
    const char *f;
    int l, col;
    cx_loc(a->c, &f, &l, &col);
    errorat(f, l, col, "inline PTX '%s' is not supported", insn);
  }
  a->bad = true;
}

/* x as a t: a conversion where the kinds differ (a pointer's always) */
static Node *cast(Asm *a, Type *t, Node *x) {
  if (x->ty && x->ty->kind == t->kind && t->kind != TY_PTR) return x;
  return ir_cast(a->at, t, x);
}

static void emit(Asm *a, Node *e) { vec_push(&a->out->list, ir_stmt(a->at, S_EXPR, e)); }

/* A register's bits as another type: PTX registers are untyped bits, so
 * a float operand ("f", "d") of a bit-typed instruction (mov.b32,
 * shfl.sync.b32, and.b32...) or an integer result stored to one moves the
 * bits, as __float_as_uint does (a numeric conversion made CUB's float
 * WarpReduce and BlockReduce wrong). Between integers of different sizes
 * the value converts (zero or sign extension, truncation), as it does for
 * a register of another width. */
static bool is_flt(Type *t) { return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE); }

static Node *opnd(Asm *a, Type *t, Node *x) {
  if (!x->ty || is_flt(x->ty) == is_flt(t) || x->ty->size != t->size || (x->ty->size != 4 && x->ty->size != 8) ||
      x->ty->kind == TY_PTR || t->kind == TY_PTR)
    return cast(a, t, x);
  bool w = t->size == 8;
  if (is_flt(t)) {   /* integer bits -> float */
    Node *c = ir_call(a->at, C_LIBM, w ? "cu_ptx_bits_f64" : "cu_ptx_bits_f32", t);
    vec_push(&c->list, cast(a, ir_type(w ? TY_ULLONG : TY_UINT), x));
    return c;
  }
  Node *c = ir_call(a->at, C_LIBM, w ? "cu_ptx_bits_u64" : "cu_ptx_bits_u32", ir_type(w ? TY_ULLONG : TY_UINT));
  vec_push(&c->list, x);
  return cast(a, t, c);
}

/* ---- instruction types (the suffix that names the operands' type) ---- */

typedef struct PT { char k; int bits; } PT;   /* k: u s b f p(red) */

static bool ptype(const char *s, PT *t) {
  if (!strcmp(s, "pred")) {
    *t = (PT){'p', 1};
    return true;
  }
  if (!strchr("usbf", s[0]) || !s[1]) return false;
  int b = atoi(s + 1);
  if (b != 8 && b != 16 && b != 32 && b != 64) return false;
  *t = (PT){s[0], b};
  return true;
}

static Type *ctype(PT t) {
  if (t.k == 'p') return ir_type(TY_BOOL);
  if (t.k == 'f') return ir_type(t.bits == 64 ? TY_DOUBLE : TY_FLOAT);
  bool s = t.k == 's';
  switch (t.bits) {
  case 8: return ir_type(s ? TY_SCHAR : TY_UCHAR);
  case 16: return ir_type(s ? TY_SHORT : TY_USHORT);
  case 32: return ir_type(s ? TY_INT : TY_UINT);
  default: return ir_type(s ? TY_LLONG : TY_ULLONG);
  }
}

static const char *tname(PT t) {
  static char b[8];
  snprintf(b, sizeof b, "%c%d", t.k == 'b' ? 'u' : t.k, t.bits);
  return b;
}

/* ---- operands ---- */

static Reg *reg(Asm *a, const char *name) {
  for (int i = a->regs.n - 1; i >= 0; i--) {
    Reg *r = a->regs.v[i];
    if (!strcmp(r->name, name)) return r;
  }
  return NULL;
}

/* A special register's value (NULL: not one). Lanes and warps count the
 * block's threads in order x, y, z, as CUDA's do. */
static Node *special(Asm *a, const char *s) {
  Type *u = ir_type(TY_UINT);
  static const char *const dims = "xyz";
  for (int d = 0; d < 3; d++) {
    char b[16];
    snprintf(b, sizeof b, "%%tid.%c", dims[d]);
    if (!strcmp(s, b)) return ir_builtin(a->at, B_TID, d);
    snprintf(b, sizeof b, "%%ntid.%c", dims[d]);
    if (!strcmp(s, b)) return ir_builtin(a->at, B_BDIM, d);
    snprintf(b, sizeof b, "%%ctaid.%c", dims[d]);
    if (!strcmp(s, b)) return ir_builtin(a->at, B_BID, d);
    snprintf(b, sizeof b, "%%nctaid.%c", dims[d]);
    if (!strcmp(s, b)) return ir_builtin(a->at, B_GDIM, d);
  }
  Node *lin = ir_bin(a->at, OP_ADD, u, ir_builtin(a->at, B_TID, 0),
                  ir_bin(a->at, OP_MUL, u, ir_builtin(a->at, B_BDIM, 0),
                      ir_bin(a->at, OP_ADD, u, ir_builtin(a->at, B_TID, 1), ir_bin(a->at, OP_MUL, u, ir_builtin(a->at, B_BDIM, 1), ir_builtin(a->at, B_TID, 2)))));
  Node *lane = ir_bin(a->at, OP_BAND, u, lin, ir_num(a->at, u, 31));
  if (!strcmp(s, "%laneid")) return lane;
  if (!strcmp(s, "%warpid")) return ir_bin(a->at, OP_SHR, u, lin, ir_num(a->at, u, 5));
  if (!strcmp(s, "%nwarpid")) return ir_num(a->at, u, 64);
  if (!strncmp(s, "%lanemask_", 10)) {
    Node *bit = ir_bin(a->at, OP_SHL, u, ir_num(a->at, u, 1), lane);
    const char *k = s + 10;
    if (!strcmp(k, "eq")) return bit;
    if (!strcmp(k, "lt")) return ir_bin(a->at, OP_SUB, u, bit, ir_num(a->at, u, 1));
    if (!strcmp(k, "le")) return ir_bin(a->at, OP_BOR, u, bit, ir_bin(a->at, OP_SUB, u, bit, ir_num(a->at, u, 1)));
    Node *le = ir_bin(a->at, OP_BOR, u, bit, ir_bin(a->at, OP_SUB, u, bit, ir_num(a->at, u, 1)));
    Node *notle = ir_un(a->at, OP_BNOT, u, le);
    if (!strcmp(k, "gt")) return notle;
    if (!strcmp(k, "ge")) return ir_bin(a->at, OP_BOR, u, notle, bit);
    return NULL;
  }
  if (!strcmp(s, "%clock") || !strcmp(s, "%clock64") || !strcmp(s, "%globaltimer") ||
      !strcmp(s, "%globaltimer_lo"))
    return ir_call(a->at, C_BUILTIN, "cu_clock64", ir_type(TY_ULLONG));
  if (!strcmp(s, "%globaltimer_hi")) return ir_bin(a->at, OP_SHR, ir_type(TY_ULLONG), ir_call(a->at, C_BUILTIN, "cu_clock64", ir_type(TY_ULLONG)), ir_num(a->at, u, 32));
  if (!strcmp(s, "%smid")) {   /* the block's place on a modelled SM: stable for the block */
    Node *b = ir_bin(a->at, OP_ADD, u, ir_builtin(a->at, B_BID, 0),
                  ir_bin(a->at, OP_MUL, u, ir_builtin(a->at, B_GDIM, 0),
                      ir_bin(a->at, OP_ADD, u, ir_builtin(a->at, B_BID, 1), ir_bin(a->at, OP_MUL, u, ir_builtin(a->at, B_GDIM, 1), ir_builtin(a->at, B_BID, 2)))));
    return ir_bin(a->at, OP_MOD, u, b, ir_call(a->at, C_LIBM, "cu_ptx_nsmid", u));
  }
  if (!strcmp(s, "%nsmid")) return ir_call(a->at, C_LIBM, "cu_ptx_nsmid", u);
  if (!strcmp(s, "WARP_SZ")) return ir_num(a->at, u, 32);
  return NULL;
}

/* Is operand text s a constant (an immediate, or an operand the frontend
 * folded)? */
static bool const_op(Asm *a, const char *s) {
  if (s[0] == '%' && isdigit((unsigned char)s[1])) {
    int i = atoi(s + 1);
    Node *n = i < a->ops.n ? a->ops.v[i] : NULL;
    while (n && n->k == N_CAST) n = n->a;
    return n && n->k == N_NUM;
  }
  return isdigit((unsigned char)s[0]);
}

static Obj *tmp_var(Asm *a, Type *t);

/* operand text s's value, when const_op */
static bool const_val(Asm *a, const char *s, long long *v) {
  if (!const_op(a, s)) return false;
  if (s[0] == '%') {
    Node *n = a->ops.v[atoi(s + 1)];
    while (n->k == N_CAST) n = n->a;
    *v = n->ival;
  } else *v = strtoll(s, NULL, 0);
  return true;
}

/* The value of operand text s as type t. */
static Node *src(Asm *a, const char *s, Type *t) {
  if (s[0] == '%' && isdigit((unsigned char)s[1])) {
    int i = atoi(s + 1);
    if (i >= a->ops.n) {
      bad(a, s);
      return ir_num(a->at, t, 0);
    }
    return opnd(a, t, a->ops.v[i]);
  }
  Reg *r = reg(a, s);
  if (r) return opnd(a, t, ir_var(a->at, r->o));
  Node *sp = special(a, s);
  if (sp) return cast(a, t, sp);
  /* immediates: 12, -3, 0x1f, 0f3f800000 (float bits), 0d... (double bits), 1.5 */
  char *end;
  if ((s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) && s[2]) {
    unsigned long long bits = strtoull(s + 2, &end, 16);
    if (!is_flt(t)) return cast(a, t, ir_num(a->at, ir_type(TY_ULLONG), (int64_t)bits));   /* (mov.b32 %0, 0f3f800000: the bits) */
    Node *n = ir_new(N_FNUM, a->at);
    if (s[1] == 'f' || s[1] == 'F') {
      uint32_t b32 = (uint32_t)bits;
      float f;
      memcpy(&f, &b32, 4);
      n->fval = f;
      n->ty = ir_type(TY_FLOAT);
    } else {
      double d;
      memcpy(&d, &bits, 8);
      n->fval = d;
      n->ty = ir_type(TY_DOUBLE);
    }
    return cast(a, t, n);
  }
  if (isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1]))) {
    if (strchr(s, '.') || (strchr(s, 'e') && !strstr(s, "0x"))) {
      Node *n = ir_new(N_FNUM, a->at);
      n->fval = strtod(s, &end);
      n->ty = ir_type(TY_DOUBLE);
      return cast(a, t, n);
    }
    long long v = strtoll(s, &end, 0);
    if (*end == 'U' || *end == 'u') end++;
    if (!*end) return cast(a, t, ir_num(a->at, ir_type(TY_LLONG), v));
  }
  bad(a, s);
  return ir_num(a->at, t, 0);
}

/* Assigns v to the destination operand s. */
static void dst(Asm *a, const char *s, Node *v) {
  if (!strcmp(s, "_")) {   /* a sink */
    emit(a, v);
    return;
  }
  Node *lv = NULL;
  if (s[0] == '%' && isdigit((unsigned char)s[1])) {
    int i = atoi(s + 1);
    if (i < a->ops.n && strchr(a->cons.v[i], '=')) lv = a->ops.v[i];
    else if (i < a->ops.n && strchr(a->cons.v[i], '+')) lv = a->ops.v[i];
  } else {
    Reg *r = reg(a, s);
    if (r) lv = ir_var(a->at, r->o);
  }
  if (!lv) {
    bad(a, s);
    return;
  }
  emit(a, ir_assign(a->at, lv, opnd(a, lv->ty, v)));
}

/* An address operand: [x], [x+8], [x-4], [name] -> a pointer to t. In
 * the shared space (ld.shared, st.shared, atom.shared...) x is a shared
 * window address, an offset in the block's shared memory, as
 * cvta.to.shared and __cvta_generic_to_shared give (cucc_dev.h's
 * __cu_dev_from_shared: the block's memory plus it). */
static Node *addr_in(Asm *a, const char *s, Type *t, bool shm) {
  size_t n = strlen(s);
  if (s[0] != '[' || s[n - 1] != ']') {
    bad(a, s);
    return ir_num(a->at, ir_ptr(t), 0);
  }
  char *in = xstrndup(s + 1, n - 2);
  long long off = 0;
  char *pm = strpbrk(in + 1, "+-");
  if (pm) {
    off = strtoll(pm, NULL, 0);
    *pm = 0;
  }
  Type *cp = ir_ptr(ir_type(TY_CHAR));
  Node *base = src(a, in, ir_type(TY_ULLONG));
  if (shm) {
    Node *c = ir_call(a->at, C_LIBM, "__cu_dev_from_shared", ir_ptr(ir_type(TY_VOID)));
    vec_push(&c->list, base);
    base = c;
  }
  Node *p = cast(a, cp, base);
  if (off) p = ir_bin(a->at, OP_ADD, cp, p, ir_num(a->at, ir_type(TY_LLONG), off));
  return cast(a, ir_ptr(t), p);
}

/* ---- one instruction ---- */

/* The helpers cucc_dev.h defines (cu_ptx_<name>): an instruction whose
 * helper is not here is refused rather than left to fail in the C. */
static bool known_helper(const char *n) {
  static const char *const pre[] = {
    "mul_hi_", "mad_lo_", "mad_hi_", "min_", "max_", "bfe_", "bfind_", "bfind_shiftamt_",
  };
  static const char *const ints[] = {"u32", "s32", "u64", "s64"};
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
    for (int k = 0; k < 4; k++)
      if (!strcmp(n, xfmt("%s%s", pre[i], ints[k]))) return true;
  static const char *const one[] = {
    "mul_wide_u32", "mul_wide_s32", "mad_wide_u32", "mad_wide_s32", "min_f32", "max_f32", "min_f64", "max_f64",
    "abs_s32", "abs_s64", "abs_f32", "abs_f64", "bfi_u32", "bfi_u64", "prmt_u32", "brev_u32", "brev_u64",
    "popc_u32", "popc_u64", "clz_u32", "clz_u64", "fma_rn_f32", "fma_rn_f64", "rcp_f32", "rcp_rn_f32",
    "rcp_f64", "rcp_rn_f64", "sqrt_f32", "sqrt_rn_f32", "sqrt_f64", "sqrt_rn_f64", "rsqrt_f32", "rsqrt_f64",
    "ex2_f32", "lg2_f32", "sin_f32", "cos_f32", "tanh_f32", "copysign_f32", "copysign_f64", "sad_u32",
    "sad_s32", "vabsdiff4_u32", "vabsdiff4_add_u32", "vabsdiff4_s32", "vabsdiff4_add_s32", "vadd4_u32",
    "vsub4_u32", "vmin4_u32", "vmax4_u32", "vmin4_s32", "vmax4_s32", "vabsdiff2_u32", "vabsdiff2_add_u32",
    "vadd2_u32", "vsub2_u32", "shf_l_wrap_u32", "shf_l_clamp_u32", "shf_r_wrap_u32", "shf_r_clamp_u32",
    "lop3_u32", "dp4a_u32", "dp4a_s32",
  };
  for (size_t i = 0; i < sizeof one / sizeof *one; i++)
    if (!strcmp(n, one[i])) return true;
  if (!strncmp(n, "cvt_", 4)) {   /* cvt_<rounding>_<type> */
    static const char *const r[] = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
    static const char *const t[] = {"f32", "f64", "s32", "u32", "s64", "u64"};
    for (int i = 0; i < 8; i++)
      for (int k = 0; k < 6; k++)
        if (!strcmp(n + 4, xfmt("%s_%s", r[i], t[k]))) return true;
  }
  return false;
}

/* op.suffixes -> opcode and its dot-parts */
typedef struct Insn { char *op; char *part[8]; int np; char *arg[8]; int na; char *text; } Insn;

static bool has(const Insn *in, const char *s) {
  for (int i = 0; i < in->np; i++)
    if (!strcmp(in->part[i], s)) return true;
  return false;
}

/* the instruction's type: its last dot-part that names one */
static bool itype(const Insn *in, PT *t) {
  for (int i = in->np - 1; i >= 0; i--)
    if (ptype(in->part[i], t)) return true;
  return false;
}

static Node *warp(Asm *a, const char *name, Type *t, Node **args, int n) {
  Node *c = ir_call(a->at, C_WARP, xstrdup(name), t);
  for (int i = 0; i < n; i++) vec_push(&c->list, args[i]);
  Node *w = fe_warp_call(a->p, a->c, c, name);
  if (!w) bad(a, name);
  a->p->fn->has_warp = true;
  return w ? w : c;
}

static void insn(Asm *a, Insn *in) {
  PT t = {'u', 32};
  bool typed = itype(in, &t);
  Type *ct = ctype(t), *u = ir_type(TY_UINT);
  const char *op = in->op;
  int na = in->na;
  #define A(i) in->arg[i]
  #define NEED(n) do { if (na != (n)) { bad(a, in->text); return; } } while (0)

  if (!strcmp(op, "cvta") && has(in, "shared")) {   /* generic <-> shared window: an offset in the block's memory */
    NEED(2);
    bool to = has(in, "to");
    Node *c = ir_call(a->at, C_LIBM, to ? "__cu_dev_to_shared" : "__cu_dev_from_shared", to ? ir_type(TY_ULLONG) : ir_ptr(ir_type(TY_VOID)));
    vec_push(&c->list, to ? cast(a, ir_ptr(ir_type(TY_VOID)), src(a, A(1), ir_type(TY_ULLONG))) : src(a, A(1), ir_type(TY_ULLONG)));
    dst(a, A(0), to ? c : cast(a, ir_type(TY_ULLONG), c));
    return;
  }
  if (!strcmp(op, "mov") || !strcmp(op, "cvta") || !strcmp(op, "cvt")) {
    NEED(2);
    PT hf, ht;
    if (!strcmp(op, "cvt") && in->np >= 2 && ptype(in->part[in->np - 1], &hf) && ptype(in->part[in->np - 2], &ht) &&
        ((hf.k == 'f' && hf.bits == 16) || (ht.k == 'f' && ht.bits == 16))) {
      /* a half's bits in a 16-bit register (cuda_fp16.h's spelling,
       * `cvt.rn.f16.f32 %0, %1;` with "=h"): to it from a float rounded
       * to nearest, from it to a float or a double exactly */
      if (ht.k == 'f' && ht.bits == 16) {
        if (hf.k != 'f' || hf.bits != 32 || (in->np >= 3 && strcmp(in->part[0], "rn"))) {
          bad(a, in->text);
          return;
        }
        Node *c = ir_call(a->at, C_LIBM, "cu_ptx_f2h_rn", ir_type(TY_USHORT));
        vec_push(&c->list, src(a, A(1), ir_type(TY_FLOAT)));
        dst(a, A(0), c);
      } else {
        if (ht.k != 'f') {
          bad(a, in->text);
          return;
        }
        Node *c = ir_call(a->at, C_LIBM, "cu_ptx_h2f", ir_type(TY_FLOAT));
        vec_push(&c->list, src(a, A(1), ir_type(TY_USHORT)));
        dst(a, A(0), ht.bits == 64 ? cast(a, ir_type(TY_DOUBLE), c) : c);
      }
      return;
    }
    if (!strcmp(op, "cvt") && t.k == 'f' && in->np >= 2) {   /* cvt.rn.f32.f64 ... : through a helper */
      PT from;
      if (!ptype(in->part[in->np - 1], &from)) {
        bad(a, in->text);
        return;
      }
      const char *rnd = in->np >= 3 ? in->part[0] : "rn";
      PT to;
      ptype(in->part[in->np - 2], &to);
      char *hn = xfmt("cvt_%s_%c%d", rnd, to.k == 'f' ? 'f' : to.k == 's' ? 's' : 'u', to.bits);
      if (!known_helper(hn)) {
        bad(a, in->text);
        return;
      }
      Node *c = ir_call(a->at, C_LIBM, xfmt("cu_ptx_%s", hn), ctype(to));
      vec_push(&c->list, src(a, A(1), ctype(from)));
      dst(a, A(0), c);
      return;
    }
    if (!strcmp(op, "cvt") && in->np >= 2) {   /* between integer sizes, or float to int */
      PT from, to;
      if (!ptype(in->part[in->np - 1], &from) || !ptype(in->part[in->np - 2], &to)) {
        bad(a, in->text);
        return;
      }
      if (from.k == 'f') {
        const char *rnd = in->np >= 3 ? in->part[0] : "rz";
        char *hn = xfmt("cvt_%s_%c%d", rnd, to.k == 's' ? 's' : 'u', to.bits);
        if (!known_helper(hn)) {
          bad(a, in->text);
          return;
        }
        Node *c = ir_call(a->at, C_LIBM, xfmt("cu_ptx_%s", hn), ctype(to));
        vec_push(&c->list, src(a, A(1), ctype(from)));
        dst(a, A(0), c);
      } else dst(a, A(0), cast(a, ctype(to), src(a, A(1), ctype(from))));
      return;
    }
    if (A(1)[0] == '{' || A(0)[0] == '{') {   /* mov.b64 d, {lo, hi}; mov.b64 {lo, hi}, a (also b32 of b16s) */
      bool pack = A(1)[0] == '{';
      char *l = xstrdup((pack ? A(1) : A(0)) + 1);
      char *close = strchr(l, '}');
      if (close) *close = 0;
      char *lo = strtok(l, ", "), *hi = strtok(NULL, ", ");
      if (!lo || !hi || strtok(NULL, ", ") || (t.bits != 64 && t.bits != 32)) {
        bad(a, in->text);
        return;
      }
      int hb = t.bits / 2;
      Type *wt = t.bits == 64 ? ir_type(TY_ULLONG) : u, *ht = t.bits == 64 ? u : ir_type(TY_USHORT);
      if (pack) {
        dst(a, A(0), ir_bin(a->at, OP_BOR, wt, cast(a, wt, src(a, lo, ht)), ir_bin(a->at, OP_SHL, wt, cast(a, wt, src(a, hi, ht)), ir_num(a->at, u, hb))));
      } else {
        Node *w = src(a, A(1), wt);
        dst(a, lo, cast(a, ht, w));
        dst(a, hi, cast(a, ht, ir_bin(a->at, OP_SHR, wt, src(a, A(1), wt), ir_num(a->at, u, hb))));
      }
      return;
    }
    dst(a, A(0), src(a, A(1), typed ? ct : u));
    return;
  }
  /* float arithmetic in a directed rounding (.rz, .rm down, .rp up): the
   * helpers of __fadd_rz and friends (cucc_dev.h), a mode each */
  int rmode = has(in, "rz") ? 1 : has(in, "rp") ? 2 : has(in, "rm") ? 3 : 0;
  if (t.k == 'f' && rmode) {
    static const struct { const char *op, *fn; int ns; } dir[] = {
      {"add", "add", 2}, {"sub", "add", 2}, {"mul", "mul", 2}, {"div", "div", 2},
      {"fma", "fma", 3}, {"mad", "fma", 3}, {"sqrt", "sqrt", 1}, {"rcp", "div", 1},
    };
    for (size_t i = 0; i < sizeof dir / sizeof *dir; i++) {
      if (strcmp(op, dir[i].op)) continue;
      NEED(dir[i].ns + 1);
      Node *c = ir_call(a->at, C_LIBM, xfmt("__cu_dev_%s%s", dir[i].fn, t.bits == 32 ? "f" : ""), ct);
      if (!strcmp(op, "rcp")) vec_push(&c->list, cast(a, ct, ir_num(a->at, ir_type(TY_INT), 1)));
      for (int k = 1; k <= dir[i].ns; k++) {
        Node *x = src(a, A(k), ct);
        if (!strcmp(op, "sub") && k == 2) x = ir_un(a->at, OP_NEG, ct, x);
        vec_push(&c->list, x);
      }
      vec_push(&c->list, ir_num(a->at, ir_type(TY_INT), rmode));
      dst(a, A(0), c);
      return;
    }
  }
  /* arithmetic the IR has */
  static const struct { const char *op; Op o; } arith[] = {
    {"add", OP_ADD}, {"sub", OP_SUB}, {"and", OP_BAND}, {"or", OP_BOR}, {"xor", OP_BXOR},
    {"shl", OP_SHL}, {"shr", OP_SHR}, {"div", OP_DIV}, {"rem", OP_MOD},
  };
  for (size_t i = 0; i < sizeof arith / sizeof *arith; i++)
    if (!strcmp(op, arith[i].op) && !has(in, "cc") && !has(in, "sat")) {
      NEED(3);
      Type *bt = arith[i].o == OP_SHL || arith[i].o == OP_SHR ? u : ct;
      if (t.k == 'p') {   /* and.pred, or.pred... */
        dst(a, A(0), ir_bin(a->at, arith[i].o, ir_type(TY_INT), src(a, A(1), ir_type(TY_INT)), src(a, A(2), ir_type(TY_INT))));
        return;
      }
      dst(a, A(0), ir_bin(a->at, arith[i].o, ct, src(a, A(1), ct), src(a, A(2), bt)));
      return;
    }
  if (!strcmp(op, "mul") && (t.k == 'f' || has(in, "lo"))) {
    NEED(3);
    dst(a, A(0), ir_bin(a->at, OP_MUL, ct, src(a, A(1), ct), src(a, A(2), ct)));
    return;
  }
  if (!strcmp(op, "not") || !strcmp(op, "neg") || !strcmp(op, "cnot")) {
    NEED(2);
    Op o = !strcmp(op, "neg") ? OP_NEG : !strcmp(op, "cnot") || t.k == 'p' ? OP_LNOT : OP_BNOT;
    Type *rt = t.k == 'p' ? ir_type(TY_INT) : ct;
    dst(a, A(0), ir_un(a->at, o, rt, src(a, A(1), rt)));
    return;
  }
  if (!strcmp(op, "setp")) {   /* setp.cmp.type p, a, b */
    NEED(3);
    static const struct { const char *c; Op o; } cmps[] = {
      {"eq", OP_EQ}, {"ne", OP_NE}, {"lt", OP_LT}, {"le", OP_LE}, {"gt", OP_GT}, {"ge", OP_GE},
      {"lo", OP_LT}, {"ls", OP_LE}, {"hi", OP_GT}, {"hs", OP_GE},
    };
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++)
      if (has(in, cmps[i].c)) {
        dst(a, A(0), ir_bin(a->at, cmps[i].o, ir_type(TY_INT), src(a, A(1), ct), src(a, A(2), ct)));
        return;
      }
    bad(a, in->text);
    return;
  }
  if (!strcmp(op, "selp")) {
    NEED(4);
    Node *p = src(a, A(3), ir_type(TY_INT)), *x = src(a, A(1), ct), *y = src(a, A(2), ct);
    dst(a, A(0), ir_cond(a->at, ct, p, x, y));
    return;
  }
  /* special registers read by name alone (mov was above) */
  /* loads and stores of any space and cache hint; vectors {a, b} */
  if (!strcmp(op, "ld") || !strcmp(op, "ldu") || !strcmp(op, "st")) {
    NEED(2);
    bool st = op[0] == 's';
    const char *mem = st ? A(0) : A(1), *val = st ? A(1) : A(0);
    int vn = has(in, "v2") ? 2 : has(in, "v4") ? 4 : 1;
    bool shm = has(in, "shared");
    if (vn == 1) {
      Node *p = ir_deref(a->at, addr_in(a, mem, ct, shm));
      if (st) emit(a, ir_assign(a->at, p, src(a, val, ct)));   /* (p of type ct) */
      else dst(a, A(0), p);
      return;
    }
    /* {x, y, z, w}: element k at the address plus k elements */
    char *list = xstrdup(val[0] == '{' ? val + 1 : val);
    char *close = strchr(list, '}');
    if (close) *close = 0;
    char *el[4];
    int ne = 0;
    for (char *tok = strtok(list, ", "); tok && ne < 4; tok = strtok(NULL, ", ")) el[ne++] = tok;
    if (ne != vn) {
      bad(a, in->text);
      return;
    }
    for (int k = 0; k < vn; k++) {
      Node *p = addr_in(a, mem, ct, shm);
      if (k) p = ir_bin(a->at, OP_ADD, p->ty, p, ir_num(a->at, ir_type(TY_INT), k));
      p = ir_deref(a->at, p);
      if (st) emit(a, ir_assign(a->at, p, src(a, el[k], ct)));
      else dst(a, el[k], p);
    }
    return;
  }
  /* atomics: atom.space.op.type d, [a], b (, c); red: no result */
  if (!strcmp(op, "atom") || !strcmp(op, "red")) {
    static const char *const aops[][2] = {{"add", "Add"}, {"min", "Min"}, {"max", "Max"}, {"inc", "Inc"},
                                          {"dec", "Dec"}, {"and", "And"}, {"or", "Or"}, {"xor", "Xor"},
                                          {"exch", "Exch"}, {"cas", "CAS"}};
    bool red = op[0] == 'r';
    for (size_t i = 0; i < sizeof aops / sizeof *aops; i++)
      if (has(in, aops[i][0])) {
        const char *sfx = t.k == 'f' ? (t.bits == 64 ? "d" : "f")
                        : t.bits == 64 ? (t.k == 's' ? "ll" : "ull") : (t.k == 's' ? "i" : "u");
        Node *c = ir_call(a->at, C_ATOMIC, xfmt("cu_atomic%s_%s", aops[i][1], sfx), ct);
        int m = red ? 0 : 1;
        vec_push(&c->list, addr_in(a, A(m), ct, has(in, "shared")));
        for (int k = m + 1; k < na; k++) vec_push(&c->list, src(a, A(k), ct));
        if (red) emit(a, c);
        else dst(a, A(0), c);
        return;
      }
    bad(a, in->text);
    return;
  }
  /* vshr/vshl.u32.u32.u32.clamp|wrap[.add]: CUB's SHR_ADD and SHL_ADD (the
   * 32-bit forms: no byte or half selects, unsigned only) */
  if ((!strcmp(op, "vshr") || !strcmp(op, "vshl")) && has(in, "u32") && !has(in, "s32") &&
      (na == 3 || (na == 4 && has(in, "add"))) && !has(in, "min") && !has(in, "max") && !has(in, "sat")) {
    Node *sh = src(a, A(2), u);
    if (has(in, "wrap")) sh = ir_bin(a->at, OP_BAND, u, sh, ir_num(a->at, u, 31));
    Node *v = ir_bin(a->at, !strcmp(op, "vshr") ? OP_SHR : OP_SHL, u, src(a, A(1), u), ir_bin(a->at, OP_BAND, u, sh, ir_num(a->at, u, 31)));
    if (!has(in, "wrap")) {   /* .clamp: a shift by 32 or more leaves 0 */
      Node *big = ir_bin(a->at, OP_GE, ir_type(TY_INT), src(a, A(2), u), ir_num(a->at, u, 32));
      v = ir_cond(a->at, u, big, ir_num(a->at, u, 0), v);
    }
    if (na == 4) v = ir_bin(a->at, OP_ADD, u, v, src(a, A(3), u));
    dst(a, A(0), v);
    return;
  }
  if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
    emit(a, ir_call(a->at, C_BUILTIN, "cu_fence", ir_type(TY_VOID)));
    return;
  }
  if ((!strcmp(op, "bar") || !strcmp(op, "barrier")) && (has(in, "sync") || in->np == 0) && na <= 1) {
    Node *s = ir_new(S_SYNC, a->at);
    a->p->fn->has_sync = true;
    vec_push(&a->out->list, s);
    return;
  }
  if (!strcmp(op, "bar") && has(in, "warp")) return;   /* bar.warp.sync: the warp runs together */
  /* warp collectives */
  if (!strcmp(op, "shfl")) {   /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
    NEED(5);
    static const char *const modes[][2] = {{"idx", "__shfl_sync"}, {"up", "__shfl_up_sync"},
                                           {"down", "__shfl_down_sync"}, {"bfly", "__shfl_xor_sync"}};
    for (int i = 0; i < 4; i++)
      if (has(in, modes[i][0])) {
        char *d = xstrdup(A(0));
        char *bar = strchr(d, '|');
        if (bar) *bar = 0;
        /* PTX's source lane j and whether it is in the segment (pval):
         * segmask = c >> 8 & 31, maxLane = (lane & segmask) | (c & 31 & ~segmask) */
        Type *it = ir_type(TY_INT);
        Node *lane = cast(a, it, special(a, "%laneid")), *b = src(a, A(2), it), *c = src(a, A(3), it);
        Node *seg = ir_bin(a->at, OP_BAND, it, ir_bin(a->at, OP_SHR, it, c, ir_num(a->at, it, 8)), ir_num(a->at, it, 31));
        Node *nseg = ir_bin(a->at, OP_BXOR, it, seg, ir_num(a->at, it, 31));
        Node *maxl = ir_bin(a->at, OP_BOR, it, ir_bin(a->at, OP_BAND, it, lane, seg),
                         ir_bin(a->at, OP_BAND, it, ir_bin(a->at, OP_BAND, it, c, ir_num(a->at, it, 31)), nseg));
        Node *j = i == 1 ? ir_bin(a->at, OP_SUB, it, lane, b) : i == 2 ? ir_bin(a->at, OP_ADD, it, lane, b)
                : i == 3 ? ir_bin(a->at, OP_BXOR, it, lane, ir_bin(a->at, OP_BAND, it, b, ir_num(a->at, it, 31)))
                         : ir_bin(a->at, OP_BOR, it, ir_bin(a->at, OP_BAND, it, lane, seg), ir_bin(a->at, OP_BAND, it, b, nseg));
        Node *pval = ir_bin(a->at, i == 1 ? OP_GE : OP_LE, it, j, maxl);
        if (bar) dst(a, bar + 1, pval);   /* d|p: p, whether the source lane is in the segment */
        /* CUDA's shuffle of that mode over segments of width 32 -
         * segmask, then the lane's own value where the source lane is past
         * c's clamp (pval false). A c known to clamp at the segment's end
         * (start, for up) needs no select: CUB's full warps. c not known
         * but the same in every lane (CUB's last_lane | SHFL_C through a
         * warp version's parameter) keeps a whole warp's shuffle by a
         * uniform offset, which the lowering makes one lane loop. */
        Node *w = ir_bin(a->at, OP_SUB, ir_type(TY_INT), ir_num(a->at, ir_type(TY_INT), 32),
                      cast(a, ir_type(TY_INT), ir_bin(a->at, OP_BAND, u, ir_bin(a->at, OP_SHR, u, src(a, A(3), u), ir_num(a->at, u, 8)), ir_num(a->at, u, 31))));
        Node *args[4] = {src(a, A(4), u), src(a, A(1), u), src(a, A(2), i == 0 || i == 3 ? ir_type(TY_INT) : u), w};
        Node *sh = warp(a, modes[i][1], u, args, 4);
        long long cv;
        if (const_val(a, A(3), &cv) && (cv & 31) == (i == 1 ? 0 : 31)) dst(a, d, sh);
        else {   /* (every lane shuffles, into a temporary; then selects) */
          Obj *t = tmp_var(a, u);
          emit(a, ir_assign(a->at, ir_var(a->at, t), sh));
          dst(a, d, ir_cond(a->at, u, pval, ir_var(a->at, t), src(a, A(1), u)));
        }
        return;
      }
    bad(a, in->text);
    return;
  }
  if (!strcmp(op, "vote")) {   /* vote.sync.ballot.b32 d, p, mask; vote.sync.any.pred d, p, mask */
    NEED(3);
    Node *args[2] = {src(a, A(2), u), src(a, A(1), ir_type(TY_INT))};
    const char *f = has(in, "ballot") ? "__ballot_sync" : has(in, "any") ? "__any_sync" : has(in, "all") ? "__all_sync" : NULL;
    if (!f) {
      bad(a, in->text);
      return;
    }
    dst(a, A(0), warp(a, f, has(in, "ballot") ? u : ir_type(TY_INT), args, 2));
    return;
  }
  if (!strcmp(op, "activemask")) {
    NEED(1);
    dst(a, A(0), warp(a, "__activemask", u, NULL, 0));
    return;
  }
  if (!strcmp(op, "redux") && has(in, "sync")) {   /* redux.sync.add.u32 d, a, mask */
    NEED(3);
    static const char *const r[] = {"add", "min", "max", "and", "or", "xor"};
    for (int i = 0; i < 6; i++)
      if (has(in, r[i])) {
        Node *args[2] = {src(a, A(2), u), src(a, A(1), ct)};
        dst(a, A(0), warp(a, xfmt("__reduce_%s_sync", r[i]), ct, args, 2));
        return;
      }
    bad(a, in->text);
    return;
  }
  if (!strcmp(op, "match") && has(in, "any")) {   /* match.any.sync.b32 d, a, mask */
    NEED(3);
    Node *args[2] = {src(a, A(2), u), src(a, A(1), ct)};
    dst(a, A(0), warp(a, "__match_any_sync", u, args, 2));
    return;
  }
  /* everything else: a helper of cucc_dev.h per operation and type */
  static const struct { const char *op; int nsrc; } helpers[] = {
    {"mul", 2}, {"mad", 3}, {"fma", 3}, {"min", 2}, {"max", 2}, {"abs", 1}, {"bfe", 3}, {"bfi", 4},
    {"prmt", 3}, {"brev", 1}, {"popc", 1}, {"clz", 1}, {"bfind", 1}, {"rcp", 1}, {"sqrt", 1},
    {"rsqrt", 1}, {"ex2", 1}, {"lg2", 1}, {"sin", 1}, {"cos", 1}, {"tanh", 1}, {"copysign", 2},
    {"testp", 1}, {"sad", 3}, {"vabsdiff4", 3}, {"vadd4", 3}, {"vsub4", 3}, {"vmin4", 3}, {"vmax4", 3},
    {"vabsdiff2", 3}, {"vadd2", 3}, {"vsub2", 3}, {"shf", 3}, {"lop3", 4}, {"dp4a", 3}, {"dp2a", 3},
  };
  for (size_t i = 0; i < sizeof helpers / sizeof *helpers; i++) {
    if (strcmp(op, helpers[i].op)) continue;
    int ns = helpers[i].nsrc;
    /* variants in the helper's name: mul.hi, mul.wide, mad.lo/hi/wide, bfind.shiftamt,
     * shf.l/r.wrap/clamp, video .add (a sum of the parts plus c) or none */
    Buf name = {0};
    buf_puts(&name, op);
    static const char *const vars[] = {"hi", "lo", "wide", "shiftamt", "l", "r", "wrap", "clamp", "add", "f4e",
                                       "b4e", "rc8", "ecl", "ecr", "rc16", "approx", "rn", "rz", "rm", "rp", "ftz", "sat"};
    for (int k = 0; k < in->np; k++)
      for (size_t v = 0; v < sizeof vars / sizeof *vars; v++)
        if (!strcmp(in->part[k], vars[v]) && strcmp(vars[v], "approx") && strcmp(vars[v], "ftz")) {
          buf_printf(&name, "_%s", vars[v]);
          break;
        }
    if (!strncmp(op, "v", 1) && !has(in, "add") && ns == 3) ns = 2;   /* video: c only with a merge */
    if (!strcmp(op, "vabsdiff4") || !strcmp(op, "vabsdiff2") || !strcmp(op, "vadd4") || !strcmp(op, "vsub4") ||
        !strcmp(op, "vmin4") || !strcmp(op, "vmax4") || !strcmp(op, "vadd2") || !strcmp(op, "vsub2"))
      t = (PT){has(in, "s32") ? 's' : 'u', 32}, ct = ctype(t);
    if (!strcmp(op, "dp4a") || !strcmp(op, "dp2a")) t = (PT){has(in, "s32") ? 's' : 'u', 32}, ct = ctype(t);
    if (na != ns + 1) {
      bad(a, in->text);
      return;
    }
    Type *rt = ct;
    if (has(in, "wide")) rt = ctype((PT){t.k, t.bits * 2});
    if (!strcmp(op, "bfind") || !strcmp(op, "popc") || !strcmp(op, "clz")) rt = u;
    if (!strcmp(op, "testp")) rt = ir_type(TY_INT);
    char *hn = xfmt("%s_%s", name.s, tname(t));
    if (!known_helper(hn)) {
      bad(a, in->text);
      return;
    }
    Node *c = ir_call(a->at, C_LIBM, xfmt("cu_ptx_%s", hn), rt);
    for (int k = 0; k < ns; k++) {
      Type *at = ct;
      if ((!strcmp(op, "bfe") && k > 0) || (!strcmp(op, "bfi") && k > 1) || (!strcmp(op, "shf") && k == 2) ||
          (!strcmp(op, "prmt") && k == 2) || (!strcmp(op, "lop3") && k == 3))
        at = u;
      if (!strcmp(op, "mad") && has(in, "wide") && k == 2) at = rt;
      vec_push(&c->list, src(a, A(k + 1), at));
    }
    dst(a, A(0), c);
    return;
  }
  bad(a, in->text);
  #undef A
  #undef NEED
}

/* ---- the template ---- */

/* a local of the function, declared where the statement stands */
static Obj *local(Asm *a, char *name, Type *t) {
  Obj *o = xcalloc(1, sizeof *o);
  o->name = name;
  o->ty = t;
  cx_loc(a->c, &o->file, &o->line, &o->col);
  vec_push(&a->p->fn->locals, o);
  vec_push(&a->out->list, ir_decl(a->at, o, NULL));
  return o;
}

/* a temporary of the translation */
static Obj *tmp_var(Asm *a, Type *t) {
  static int n;
  return local(a, xfmt("ptx_t%d", ++n), t);
}

/* A .reg declaration: .reg .type name[, name...]; or name<N> (N registers) */
static void decl(Asm *a, char *s) {
  char *p = s + 4;
  while (*p == ' ') p++;
  if (*p != '.') {
    bad(a, s);
    return;
  }
  char *tn = p + 1;
  char *sp = strpbrk(tn, " \t");
  if (!sp) {
    bad(a, s);
    return;
  }
  *sp = 0;
  PT t;
  if (!ptype(tn, &t)) {
    bad(a, s);
    return;
  }
  for (char *nm = strtok(sp + 1, ", \t"); nm; nm = strtok(NULL, ", \t")) {
    int count = 1;
    char *lt = strchr(nm, '<');
    if (lt) {
      count = atoi(lt + 1);
      *lt = 0;
    }
    for (int i = 0; i < count; i++) {
      char *full = lt ? xfmt("%s%d", nm, i) : xstrdup(nm);
      Obj *o = local(a, xfmt("ptx_%s", full[0] == '%' ? full + 1 : full), ctype(t));
      Reg *r = xcalloc(1, sizeof *r);
      r->name = full;
      r->o = o;
      vec_push(&a->regs, r);
    }
  }
}

/* One statement of the template (no ';'), with an optional @p guard. */
static void line(Asm *a, char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = 0;
  if (!*s) return;
  if (!strncmp(s, ".reg", 4)) {
    decl(a, s);
    return;
  }
  Node *guard = NULL;
  if (s[0] == '@') {
    bool neg = s[1] == '!';
    char *g = s + 1 + neg;
    char *sp = strpbrk(g, " \t");
    if (!sp) {
      bad(a, s);
      return;
    }
    *sp = 0;
    guard = src(a, g, ir_type(TY_INT));
    if (neg) guard = ir_un(a->at, OP_LNOT, ir_type(TY_INT), guard);
    s = sp + 1;
    while (*s == ' ' || *s == '\t') s++;
  }
  Insn in = {0};
  in.text = xstrdup(s);
  char *sp = strpbrk(s, " \t");
  char *args = sp ? sp + 1 : (char *)"";
  if (sp) *sp = 0;
  in.op = strtok(s, ".");
  for (char *pt = strtok(NULL, "."); pt && in.np < 8; pt = strtok(NULL, ".")) in.part[in.np++] = pt;
  /* operands: split at commas outside [] and {} */
  char *q = args;
  int depth = 0;
  char *start = q;
  for (;; q++) {
    if (*q == '[' || *q == '{') depth++;
    if (*q == ']' || *q == '}') depth--;
    if ((*q == ',' && depth == 0) || !*q) {
      char *e = q;
      while (*start == ' ' || *start == '\t') start++;
      while (e > start && (e[-1] == ' ' || e[-1] == '\t')) e--;
      if (e > start && in.na < 8) in.arg[in.na++] = xstrndup(start, e - start);
      if (!*q) break;
      start = q + 1;
    }
  }
  Node *blk = a->out;
  if (guard) {
    a->out = ir_new(S_BLOCK, a->at);
  }
  insn(a, &in);
  if (guard) {
    vec_push(&blk->list, ir_if(a->at, guard, a->out, NULL));
    a->out = blk;
  }
}

/* the asm's tokens: its template, and each operand's constraint */
static bool read_tokens(Asm *a, Buf *tmpl) {
  CXTranslationUnit tu = a->p->tu;
  CXToken *toks;
  unsigned nt;
  clang_tokenize(tu, clang_getCursorExtent(a->c), &toks, &nt);
  unsigned i = 0;
  bool ok = false;
  while (i < nt && clang_getTokenKind(toks[i]) != CXToken_Punctuation) i++;   /* asm, volatile, __asm__ */
  if (i < nt && !strcmp(cx_str(clang_getTokenSpelling(tu, toks[i])), "(")) {
    i++;
    int section = 0, depth = 0;
    ok = true;
    for (; i < nt; i++) {
      char *sp = cx_str(clang_getTokenSpelling(tu, toks[i]));
      CXTokenKind k = clang_getTokenKind(toks[i]);
      if (k == CXToken_Punctuation && (!strcmp(sp, "(") || !strcmp(sp, "["))) depth++;
      else if (k == CXToken_Punctuation && (!strcmp(sp, ")") || !strcmp(sp, "]"))) {
        if (depth-- == 0) break;
      } else if (k == CXToken_Punctuation && depth == 0 && (!strcmp(sp, ":") || !strcmp(sp, "::")))
        section += sp[1] ? 2 : 1;
      else if (k == CXToken_Literal && sp[0] == '"' && depth == 0) {
        /* a string literal: the template (concatenated), or a constraint */
        Buf lit = {0};
        for (char *c = sp + 1; *c && c[1]; c++) {
          if (*c == '\\' && c[1]) {
            c++;
            putc_(&lit, *c == 'n' ? '\n' : *c == 't' ? '\t' : *c);
          } else putc_(&lit, *c);
        }
        if (section == 0) buf_puts(tmpl, lit.s ? lit.s : "");
        else if (section <= 2) vec_push(&a->cons, lit.s ? lit.s : xstrdup(""));
      }
    }
  }
  clang_disposeTokens(tu, toks, nt);
  return ok;
}

/* The same from clang's print of the function that holds it: an asm
 * written in a macro's body (CUB's ThreadLoad and ThreadStore
 * specializations, made by _CUB_LOAD_ALL(LOAD_LDG, global.nc)) has no
 * tokens of its own, only the macro's invocation, and libclang prints
 * declarations only; the function's print has the template and the
 * constraints, at its k-th asm statement. */
typedef struct AsmNth { CXCursor want; int n; bool found; } AsmNth;
static enum CXChildVisitResult nth_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  AsmNth *t = d;
  if (clang_getCursorKind(c) == CXCursor_AsmStmt) {
    /* (the cursors differ in their parents: compared by extent) */
    if (clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(t->want))) {
      t->found = true;
      return CXChildVisit_Break;
    }
    t->n++;
  }
  return CXChildVisit_Recurse;
}

static bool read_printed(Asm *a, Buf *tmpl) {
  CXCursor fn = clang_getNullCursor();
  for (int i = 0; i < a->p->funcs.n; i++) {
    FnMap *m = a->p->funcs.v[i];
    if (m->o == a->p->fn) fn = m->c;
  }
  if (clang_Cursor_isNull(fn)) return false;
  AsmNth nth = {a->c, 0, false};
  clang_visitChildren(fn, nth_cb, &nth);
  if (!nth.found) return false;
  CXPrintingPolicy pol = clang_getCursorPrintingPolicy(fn);
  char *txt = cx_str(clang_getCursorPrettyPrinted(fn, pol));
  clang_PrintingPolicy_dispose(pol);
  /* the nth.n-th "asm" outside string and character literals */
  char *q = txt;
  for (int k = 0; *q; q++) {
    if (*q == '"' || *q == '\'') {
      char e = *q;
      for (q++; *q && *q != e; q++) q += *q == '\\' && q[1];
      if (!*q) break;
    } else if (!strncmp(q, "asm", 3) && (q == txt || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
               !(isalnum((unsigned char)q[3]) || q[3] == '_') && k++ == nth.n)
      break;
  }
  q = *q ? strchr(q, '(') : NULL;
  bool ok = false;
  if (q) {
    int section = 0, depth = 0;
    ok = true;
    for (q++; *q; q++) {
      if (*q == '(' || *q == '[') depth++;
      else if (*q == ')' || *q == ']') {
        if (depth-- == 0) break;
      } else if (*q == ':' && depth == 0) {
        section += q[1] == ':' ? 2 : 1;
        q += q[1] == ':';
      } else if (*q == '"') {
        Buf lit = {0};
        for (q++; *q && *q != '"'; q++) {
          if (*q == '\\' && q[1]) {
            q++;
            putc_(&lit, *q == 'n' ? '\n' : *q == 't' ? '\t' : *q);
          } else putc_(&lit, *q);
        }
        if (!*q) {
          ok = false;
          break;
        }
        if (section == 0) buf_puts(tmpl, lit.s ? lit.s : "");
        else if (section <= 2) vec_push(&a->cons, lit.s ? lit.s : xstrdup(""));
      }
    }
  }
  free(txt);
  return ok;
}

typedef struct OpKids { Fe *p; Vec *v; } OpKids;
static enum CXChildVisitResult op_cb(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  OpKids *ok = d;
  if (clang_isExpression(clang_getCursorKind(c))) vec_push(ok->v, fe_expr(ok->p, c));
  return CXChildVisit_Continue;
}

Node *fe_asm(Fe *p, CXCursor c) {
  Asm a = {0};
  a.p = p;
  a.c = c;
  a.at = ir_cloc(c);
  a.out = ir_new(S_BLOCK, a.at);
  Buf tmpl = {0};
  OpKids ok = {p, &a.ops};
  clang_visitChildren(c, op_cb, &ok);
  bool ok_ = read_tokens(&a, &tmpl) && a.ops.n == a.cons.n;
  if (!ok_ || !tmpl.len) {   /* an asm in a macro's body: from its function's print */
    Vec cons = a.cons;
    Buf t2 = {0};
    a.cons = (Vec){0};
    if (read_printed(&a, &t2) && a.ops.n == a.cons.n) {
      tmpl = t2;
      ok_ = true;
    } else a.cons = cons;
  }
  if (!ok_) {
    bad(&a, "asm");
    return a.out;
  }
  /* %% is a literal % in the template; '{' and '}' open and close register
   * scopes; comments go */
  Buf s = {0};
  const char *t = tmpl.s ? tmpl.s : "";
  for (const char *q = t; *q; q++) {
    if (q[0] == '%' && q[1] == '%') {
      putc_(&s, '%');
      q++;
    } else if (q[0] == '/' && q[1] == '/') {
      while (*q && *q != '\n') q++;
      if (!*q) break;
    } else if (*q == '\n' || *q == '\t') putc_(&s, ' ');
    else putc_(&s, *q);
  }
  char *all = s.s ? s.s : xstrdup("");
  /* statements end at ';'; a '{' that opens a statement opens a register
   * scope (closed by its '}'), any other '{' starts a vector operand */
  int scope0 = a.regs.n, vdepth = 0;
  Vec marks = {0};
  char *start = all;
  for (char *q = all;; q++) {
    bool blank = true;
    for (char *b = start; b < q && blank; b++) blank = *b == ' ';
    if (*q == '{' && blank) {
      vec_push(&marks, (void *)(intptr_t)a.regs.n);
      start = q + 1;
    } else if (*q == '{') vdepth++;
    else if (*q == '}' && vdepth) vdepth--;
    else if (*q == '}' && marks.n) {
      *q = 0;
      line(&a, start);
      a.regs.n = (int)(intptr_t)marks.v[--marks.n];
      start = q + 1;
    } else if (*q == ';' || !*q) {
      char end = *q;
      *q = 0;
      line(&a, start);
      if (!end) break;
      start = q + 1;
    }
  }
  a.regs.n = scope0;
  return a.out;
}
