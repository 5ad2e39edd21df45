/* curand.c: the tables of curand_kernel.h's XORWOW skipahead. XORWOW's
 * xor-shift part is linear over GF(2) on its 160 bits of state, so n steps
 * are the n-th power of one 160x160 bit matrix; skipping ahead multiplies
 * the state by the powers 2^k for the set bits of n. Power k is stored as
 * the images of the 160 unit states (rows of 5 words), k = 0..99: enough
 * for offsets below 2^67 and subsequences (2^67 steps each) below 2^32.
 * Made once, when a kernel first asks. */
#include "rt.h"

enum { NPOW = 100, ROW = 5, MAT = 160 * ROW };
static unsigned int *powers;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* one step of the xor-shift part (the Weyl counter d is added apart) */
static void step(unsigned int *v) {
  unsigned int t = v[0] ^ (v[0] >> 2);
  v[0] = v[1], v[1] = v[2], v[2] = v[3], v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

/* out = v times matrix m */
static void apply(const unsigned int *m, const unsigned int *v, unsigned int *out) {
  unsigned int r[ROW] = {0};
  for (int i = 0; i < 160; i++)
    if (v[i >> 5] >> (i & 31) & 1)
      for (int k = 0; k < ROW; k++) r[k] ^= m[i * ROW + k];
  memcpy(out, r, sizeof r);
}

static void make(void) {
  unsigned int *p = malloc(sizeof *p * NPOW * MAT);
  if (!p) return;
  for (int i = 0; i < 160; i++) {   /* power 0: one step */
    unsigned int *row = p + i * ROW;
    memset(row, 0, ROW * sizeof *row);
    row[i >> 5] = 1u << (i & 31);
    step(row);
  }
  for (int k = 1; k < NPOW; k++)    /* power k: power k-1 twice */
    for (int i = 0; i < 160; i++) apply(p + (k - 1) * MAT, p + (k - 1) * MAT + i * ROW, p + k * MAT + i * ROW);
  rt_ck_alloc(p, sizeof *p * NPOW * MAT, RT_CK_RT, "curand's skip-ahead tables");   /* (--check: kernels read it) */
  powers = p;
}

const unsigned int *cu_curand_xorwow_powers(void) {
  pthread_once(&once, make);
  if (!powers) {
    fprintf(stderr, "cucc: out of memory for curand's skipahead tables\n");
    abort();
  }
  return powers;
}
