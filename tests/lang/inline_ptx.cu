// inline_ptx.cu: inline PTX as real code writes it, translated by cucc:
// special registers, integer and floating instructions with a helper each,
// register declarations in braces with setp/selp and guards, warp
// collectives (shfl.sync, vote.sync with predicate registers), loads and
// stores with cache hints, offsets and vectors, atomics, fences, packing;
// float and double registers of bit-typed instructions (mov.b32, mov.b64
// {lo, hi}, shfl.sync.idx.b32, a 0f immediate): their bits move, not their
// value (CUB's shuffles of floats); shared window addresses (cvta.to.shared,
// __cvta_generic_to_shared) in ld.shared, st.shared and atom.shared. Each
// result is checked against the CPU.
#include <cstdio>
#include <cstring>

__device__ unsigned lane_ptx() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__global__ void specials(unsigned *o, unsigned long long *t) {
  unsigned tid = threadIdx.x + threadIdx.y * blockDim.x, *r = o + (blockIdx.x * blockDim.x * blockDim.y + tid) * 10;
  unsigned w, lt, le, eq, gt, ge, tx, ntx, cx, nsm, sm;
  asm("mov.u32 %0, %%warpid;" : "=r"(w));
  asm volatile("mov.u32 %0, %%lanemask_lt;\n\t"
               "mov.u32 %1, %%lanemask_le;\n\t"
               "mov.u32 %2, %%lanemask_eq;\n\t"
               "mov.u32 %3, %%lanemask_gt;\n\t"
               "mov.u32 %4, %%lanemask_ge;"
               : "=r"(lt), "=r"(le), "=r"(eq), "=r"(gt), "=r"(ge));
  asm("mov.u32 %0, %%tid.x; mov.u32 %1, %%ntid.x; mov.u32 %2, %%ctaid.x;" : "=r"(tx), "=r"(ntx), "=r"(cx));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  r[0] = lane_ptx(), r[1] = w, r[2] = lt, r[3] = le, r[4] = eq, r[5] = gt, r[6] = ge;
  r[7] = tx + 1000 * ntx, r[8] = cx, r[9] = sm < nsm && nsm > 0;
  unsigned long long c0, c1, g0;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  unsigned k0, k1;   // the 32-bit %clock: a later read is not behind (modulo its wrap)
  asm volatile("mov.u32 %0, %%clock;" : "=r"(k0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(k1));
  if (tid == 0) t[blockIdx.x] = (c1 >= c0) + (g0 > 0) + (k1 - k0 < 0x80000000u);
}

__global__ void arith(const unsigned *a, const unsigned *b, unsigned *o, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], *r = o + i * 24;
  int s = (int)x;
  asm("bfe.u32 %0, %1, 4, 9;" : "=r"(r[0]) : "r"(x));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(s), "r"(y % 20), "r"(7u));
  asm("bfi.b32 %0, %1, %2, 8, 12;" : "=r"(r[2]) : "r"(x), "r"(y));
  asm("prmt.b32 %0, %1, %2, 0x3715;" : "=r"(r[3]) : "r"(x), "r"(y));
  asm("brev.b32 %0, %1;" : "=r"(r[4]) : "r"(x));
  asm("popc.b32 %0, %1;" : "=r"(r[5]) : "r"(x));
  asm("clz.b32 %0, %1;" : "=r"(r[6]) : "r"(x >> (y % 32)));
  asm volatile("bfind.u32 %0, %1;" : "=r"(r[7]) : "r"(x >> (y % 32)));
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r[8]) : "r"(x), "r"(y), "r"(12345u));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r[9]) : "r"(x), "r"(y));
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r[22]) : "r"(x), "r"(y), "r"(y));
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r[23]) : "r"(s), "r"((int)y - 5000), "r"(7u));
  unsigned long long wide;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(wide) : "r"(x), "r"(y));
  r[10] = (unsigned)(wide >> 20);
  asm("min.s32 %0, %1, %2;" : "=r"(r[11]) : "r"(s), "r"((int)y));
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(r[12]) : "r"(x), "r"(y), "r"(7u));
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r[13]) : "r"(x), "r"(y), "r"(100u));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[14]) : "r"(x), "r"(y), "r"(y % 40));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[15]) : "r"(x), "r"(y), "r"(x + y));   // a ^ b ^ c
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r[16]) : "r"(x), "r"(y), "r"(1u));
  asm("add.u32 %0, %1, %2; xor.b32 %0, %0, 0x55;" : "+r"(r[17]) : "r"(x), "r"(y));
  // registers in braces, a comparison, a selection and a guarded move
  asm("{\n\t.reg .pred p;\n\t.reg .u32 t<2>;\n\t"
      "setp.lt.u32 p, %1, %2;\n\t"
      "selp.u32 t0, %1, %2, p;\n\t"
      "shl.b32 t1, t0, 1;\n\t"
      "@p add.u32 t1, t1, 1;\n\t"
      "@!p sub.u32 t1, t1, 1;\n\t"
      "mov.u32 %0, t1;\n\t}"
      : "=r"(r[18]) : "r"(x), "r"(y));
  unsigned lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(wide));
  unsigned long long back;
  asm("mov.b64 %0, {%1, %2};" : "=l"(back) : "r"(hi), "r"(lo));   // swapped halves
  r[19] = lo ^ hi, r[20] = (unsigned)(back >> 32) == lo && (unsigned)back == hi;
  int rz;
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(rz) : "f"((float)s / 1000.0f));
  r[21] = (unsigned)rz;
  float fx = (float)(x % 1000) / 7.0f, fr;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(fr) : "f"(fx), "f"(2.0f), "f"(0.5f));
  f[i * 2] = fr;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(f[i * 2 + 1]) : "f"(fx));
}

__global__ void warps(const int *v, int *o) {
  int t = threadIdx.x, x = v[t];
  int up, bf;
  asm volatile("shfl.sync.up.b32 %0, %1, 3, 0, 0xffffffff;" : "=r"(up) : "r"(x));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 5, 0x1f, 0xffffffff;" : "=r"(bf) : "r"(x));
  unsigned ballot;
  int any;
  asm volatile("{\n\t.reg .pred p, q;\n\t"
               "setp.gt.s32 p, %2, 50;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
               "vote.sync.any.pred q, p, 0xffffffff;\n\t"
               "selp.s32 %1, 1, 0, q;\n\t}"
               : "=r"(ballot), "=r"(any)
               : "r"(x));
  o[t * 4] = up, o[t * 4 + 1] = bf, o[t * 4 + 2] = (int)ballot, o[t * 4 + 3] = any;
}

// shfl.sync with c not known at compile time (CUB's last_lane | SHFL_C):
// every mode against PTX's definition (ptx_shfl below)
__global__ void shflc(const int *v, int *o, int b, int c) {
  int t = threadIdx.x, x = v[t], d[4];
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(d[0]) : "r"(x), "r"(b), "r"(c));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(d[1]) : "r"(x), "r"(b), "r"(c));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(d[2]) : "r"(x), "r"(b), "r"(c));
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, 0xffffffff;" : "=r"(d[3]) : "r"(x), "r"(b), "r"(c));
  for (int k = 0; k < 4; k++) o[t * 4 + k] = d[k];
}

// PTX ISA, shfl.sync: lane l of a warp's values w, mode 0 down, 1 up, 2 idx, 3 bfly
static int ptx_shfl(const int *w, int l, int mode, int b, int c) {
  int seg = (c >> 8) & 31, cv = c & 31, bv = b & 31;
  int maxl = (l & seg) | (cv & ~seg), minl = l & seg, j;
  bool p;
  if (mode == 0) j = l + bv, p = j <= maxl;
  else if (mode == 1) j = l - bv, p = j >= maxl;
  else if (mode == 2) j = minl | (bv & ~seg), p = j <= maxl;
  else j = l ^ bv, p = j <= maxl;
  return w[p ? j : l];
}

__global__ void memory(const float *src, float *dst, unsigned *count, float4 *v4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x, y;
  asm volatile("ld.global.cs.f32 %0, [%1];" : "=f"(x) : "l"(src + i));
  asm volatile("ld.global.nc.f32 %0, [%1+4];" : "=f"(y) : "l"(src + i));   // src[i + 1]
  asm volatile("st.global.wb.f32 [%0], %1;" ::"l"(dst + i), "f"(x + y));
  float a, b, c, d;
  asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(v4 + i));
  asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(v4 + i), "f"(d + a - a), "f"(c + b - b));
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(count));
  asm volatile("red.global.add.u32 [%0], 2;" ::"l"(count + 1));
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  (void)old;
}

static int bad = 0;
static void want(unsigned got, unsigned w, const char *what, int i) {
  if (got != w && bad++ < 12) printf("%s [%d]: %#x, want %#x\n", what, i, got, w);
}

__global__ void bits(const float *f, const double *d, unsigned *u, float *fo, double *dout) {
  int t = threadIdx.x;
  unsigned r, one;
  asm("mov.b32 %0, %1;" : "=r"(r) : "f"(f[t]));
  u[t] = r;
  float back;
  asm("mov.b32 %0, %1;" : "=f"(back) : "r"(r + 1));
  fo[t] = back;
  unsigned lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "d"(d[t]));
  double joined;
  asm("mov.b64 %0, {%1, %2};" : "=d"(joined) : "r"(lo), "r"(hi ^ 0x80000000u));
  dout[t] = joined;
  float sh;
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;" : "=f"(sh) : "f"(f[t]), "r"(3));
  fo[32 + t] = sh;
  asm("mov.b32 %0, 0f3f800000;" : "=r"(one));
  u[32 + t] = one;
}

__global__ void window(float *o, unsigned *cnt) {
  __shared__ float s[64];
  __shared__ unsigned n;
  unsigned sa;
  asm("{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }" : "=r"(sa) : "l"(&s[threadIdx.x]));
  asm volatile("st.shared.f32 [%0], %1;" ::"r"(sa), "f"(threadIdx.x * 0.5f));
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  float v;
  unsigned na = (unsigned)__cvta_generic_to_shared(&s[(threadIdx.x + 1) % 64]);
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(na));
  unsigned nn = (unsigned)__cvta_generic_to_shared(&n);
  asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(nn));
  __syncthreads();
  o[threadIdx.x] = v;
  if (threadIdx.x == 0) *cnt = n;
}

int main() {
  // special registers: 2 blocks of 8x12 threads
  unsigned *o;
  unsigned long long *t;
  cudaMallocManaged(&o, 2 * 96 * 10 * sizeof(unsigned));
  cudaMallocManaged(&t, 2 * sizeof(unsigned long long));
  specials<<<2, dim3(8, 12)>>>(o, t);
  cudaDeviceSynchronize();
  for (int b = 0; b < 2; b++)
    for (int tid = 0; tid < 96; tid++) {
      unsigned *r = o + (b * 96 + tid) * 10, l = tid % 32;
      want(r[0], l, "%laneid", tid);
      want(r[1], tid / 32, "%warpid", tid);
      want(r[2], (1u << l) - 1, "%lanemask_lt", tid);
      want(r[3], (1u << l) | ((1u << l) - 1), "%lanemask_le", tid);
      want(r[4], 1u << l, "%lanemask_eq", tid);
      want(r[5], ~((1u << l) | ((1u << l) - 1)), "%lanemask_gt", tid);
      want(r[6], ~((1u << l) - 1), "%lanemask_ge", tid);
      want(r[7], tid % 8 + 8000, "%tid/%ntid", tid);
      want(r[8], b, "%ctaid", tid);
      want(r[9], 1, "%smid/%nsmid", tid);
    }
  want((unsigned)t[0] + (unsigned)t[1], 6, "%clock64/%globaltimer/%clock", 0);

  const int N = 256;
  unsigned *a, *b, *r;
  float *f;
  cudaMallocManaged(&a, N * sizeof(unsigned));
  cudaMallocManaged(&b, N * sizeof(unsigned));
  cudaMallocManaged(&r, N * 24 * sizeof(unsigned));
  cudaMallocManaged(&f, N * 2 * sizeof(float));
  unsigned seed = 7;
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    a[i] = seed ^ (seed << 7);
    seed = seed * 1103515245u + 12345u;
    b[i] = seed >> 3;
  }
  memset(r, 0, N * 24 * sizeof(unsigned));
  arith<<<N / 64, 64>>>(a, b, r, f);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++) {
    unsigned x = a[i], y = b[i], *q = r + i * 24;
    int s = (int)x;
    want(q[0], (x >> 4) & 0x1ff, "bfe.u32", i);
    unsigned p = y % 20;
    int sf = (int)((unsigned)s << (32 - p - 7)) >> (32 - 7);
    want(q[1], (unsigned)sf, "bfe.s32", i);
    want(q[2], (y & ~(0xfffu << 8)) | ((x << 8) & (0xfffu << 8)), "bfi.b32", i);
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned pr = 0;
    for (int k = 0; k < 4; k++) pr |= (unsigned)((v >> (((0x3715 >> (4 * k)) & 7) * 8)) & 0xff) << (8 * k);
    want(q[3], pr, "prmt.b32", i);
    unsigned rv = 0;
    for (int k = 0; k < 32; k++) rv |= ((x >> k) & 1u) << (31 - k);
    want(q[4], rv, "brev.b32", i);
    want(q[5], __builtin_popcount(x), "popc.b32", i);
    unsigned xs = x >> (y % 32);
    want(q[6], xs ? __builtin_clz(xs) : 32, "clz.b32", i);
    want(q[7], xs ? 31 - __builtin_clz(xs) : 0xffffffffu, "bfind.u32", i);
    want(q[8], x * y + 12345u, "mad.lo.u32", i);
    want(q[9], (unsigned)(((unsigned long long)x * y) >> 32), "mul.hi.u32", i);
    want(q[22], (unsigned)(((unsigned long long)x * y) >> 32) + y, "mad.hi.u32", i);
    want(q[23], (unsigned)(int)(((long long)s * ((int)y - 5000)) >> 32) + 7u, "mad.hi.s32", i);
    want(q[10], (unsigned)(((unsigned long long)x * y) >> 20), "mul.wide.u32", i);
    want(q[11], (unsigned)(s < (int)y ? s : (int)y), "min.s32", i);
    want(q[12], (x > y ? x - y : y - x) + 7, "sad.u32", i);
    unsigned sum = 100;
    for (int k = 0; k < 4; k++) {
      int xa = (x >> (8 * k)) & 0xff, ya = (y >> (8 * k)) & 0xff;
      sum += xa > ya ? xa - ya : ya - xa;
    }
    want(q[13], sum, "vabsdiff4.add", i);
    want(q[14], (unsigned)(((((unsigned long long)y << 32) | x) << ((y % 40) & 31)) >> 32), "shf.l.wrap", i);
    want(q[15], x ^ y ^ (x + y), "lop3", i);
    unsigned dp = 1;
    for (int k = 0; k < 4; k++) dp += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
    want(q[16], dp, "dp4a", i);
    want(q[17], (x + y) ^ 0x55, "add/xor in place", i);
    unsigned t0 = x < y ? x : y, t1 = (t0 << 1) + (x < y ? 1 : (unsigned)-1);
    want(q[18], t1, "setp/selp/@p", i);
    unsigned long long w = (unsigned long long)x * y;
    want(q[19], (unsigned)w ^ (unsigned)(w >> 32), "mov.b64 unpack", i);
    want(q[20], 1, "mov.b64 pack", i);
    want(q[21], (unsigned)(int)((float)s / 1000.0f), "cvt.rzi.s32.f32", i);
    float fx = (float)(x % 1000) / 7.0f;
    if (f[i * 2] != fx * 2.0f + 0.5f || f[i * 2 + 1] != sqrtf(fx)) {
      if (bad++ < 12) printf("fma/sqrt [%d]\n", i);
    }
  }

  int *wv, *wo;
  cudaMallocManaged(&wv, 64 * sizeof(int));
  cudaMallocManaged(&wo, 64 * 4 * sizeof(int));
  for (int i = 0; i < 64; i++) wv[i] = (i * 37) % 101;
  warps<<<1, 64>>>(wv, wo);
  cudaDeviceSynchronize();
  for (int w = 0; w < 2; w++) {
    unsigned ballot = 0;
    for (int l = 0; l < 32; l++) ballot |= (unsigned)(wv[w * 32 + l] > 50) << l;
    for (int l = 0; l < 32; l++) {
      int i = w * 32 + l;
      want(wo[i * 4], wv[l >= 3 ? i - 3 : i], "shfl.sync.up", i);
      want(wo[i * 4 + 1], wv[w * 32 + (l ^ 5)], "shfl.sync.bfly", i);
      want(wo[i * 4 + 2], ballot, "vote.sync.ballot", i);
      want(wo[i * 4 + 3], ballot != 0, "vote.sync.any", i);
    }
  }

  // c: a whole warp (0x1f), its first 16 lanes (0x0f), segments of 16
  // (0x101f), of 8 whose last 3 lanes are past the clamp (0x1804), of 4
  const int cs[] = {0x1f, 0x0f, 0x101f, 0x1804, 0x1c03, 0};
  for (int ci = 0; ci < 6; ci++)
    for (int b = 1; b < 8; b += 3) {
      shflc<<<1, 64>>>(wv, wo, b, cs[ci]);
      cudaDeviceSynchronize();
      for (int i = 0; i < 64; i++)
        for (int m = 0; m < 4; m++)
          want(wo[i * 4 + m], ptx_shfl(wv + i / 32 * 32, i % 32, m, b, cs[ci]),
               m == 0 ? "shfl.sync.down, c not constant" : m == 1 ? "shfl.sync.up, c not constant"
               : m == 2 ? "shfl.sync.idx, c not constant" : "shfl.sync.bfly, c not constant", i);
    }

  float *src, *dst;
  float4 *v4;
  unsigned *cnt;
  cudaMallocManaged(&src, (N + 1) * sizeof(float));
  cudaMallocManaged(&dst, N * sizeof(float));
  cudaMallocManaged(&v4, N * sizeof(float4));
  cudaMallocManaged(&cnt, 2 * sizeof(unsigned));
  for (int i = 0; i <= N; i++) src[i] = i * 0.5f;
  for (int i = 0; i < N; i++) v4[i] = make_float4(i, i + 1, i + 2, i + 3);
  cnt[0] = cnt[1] = 0;
  memory<<<N / 32, 32>>>(src, dst, cnt, v4);
  cudaDeviceSynchronize();
  for (int i = 0; i < N; i++) {
    if (dst[i] != src[i] + src[i + 1] || v4[i].x != i + 3 || v4[i].y != i + 2 || v4[i].z != i + 2 || v4[i].w != i + 3) {
      if (bad++ < 12) printf("ld/st [%d]\n", i);
    }
  }
  want(cnt[0], N, "atom.add", 0);
  want(cnt[1], 2 * N, "red.add", 0);

  float *bf, *bfo;
  double *bd, *bdo;
  unsigned *bu;
  cudaMallocManaged(&bf, 32 * sizeof(float));
  cudaMallocManaged(&bfo, 64 * sizeof(float));
  cudaMallocManaged(&bd, 32 * sizeof(double));
  cudaMallocManaged(&bdo, 32 * sizeof(double));
  cudaMallocManaged(&bu, 64 * sizeof(unsigned));
  for (int i = 0; i < 32; i++) {
    bf[i] = 1.5f + i * 0.25f;
    bd[i] = -2.5 + i * 0.125;
  }
  bits<<<1, 32>>>(bf, bd, bu, bfo, bdo);
  cudaDeviceSynchronize();
  for (int i = 0; i < 32; i++) {
    unsigned ub, ub1;
    memcpy(&ub, &bf[i], 4);
    ub1 = ub + 1;
    float f1;
    memcpy(&f1, &ub1, 4);
    if (bu[i] != ub || bfo[i] != f1 || bdo[i] != -bd[i] || bfo[32 + i] != bf[3] || bu[32 + i] != 0x3f800000u) {
      if (bad++ < 12) printf("bits [%d]: %08x %g %g %g %08x\n", i, bu[i], bfo[i], bdo[i], bfo[32 + i], bu[32 + i]);
    }
  }
  window<<<1, 64>>>(bfo, bu);
  cudaDeviceSynchronize();
  for (int i = 0; i < 64; i++)
    if (bfo[i] != ((i + 1) % 64) * 0.5f && bad++ < 12) printf("window [%d]: %g\n", i, bfo[i]);
  want(bu[0], 64, "red.shared.add", 0);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
