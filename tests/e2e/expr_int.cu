// expr_int.cu: integer expressions per thread, on thread-dependent values:
// + - * / % on int, unsigned and long long (division and modulo of negative
// numbers), shifts by varying amounts, bit ops, comparisons (also mixed
// signed/unsigned), unary - ~ !. Checked against the same code on the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 40   // results per thread

__global__ void ints(const int *a, const int *b, long long *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];              // y != 0
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  long long lx = (long long)x * 100003LL, ly = y;
  unsigned long long ul = (unsigned long long)lx;
  int s = i % 31;                      // varying shift count
  long long *r = o + (long long)i * K;
  r[0] = x + y;    r[1] = x - y;    r[2] = x * y;    r[3] = x / y;
  r[4] = x % y;    r[5] = ux / uy;  r[6] = ux % uy;  r[7] = ux * uy;
  r[8] = lx / ly;  r[9] = lx % ly;  r[10] = lx * ly; r[11] = lx - ly * 7;
  r[12] = ux << s; r[13] = x >> s;  r[14] = ux >> s; r[15] = lx >> (s + 20);
  r[16] = ul << (s + 3); r[17] = ul >> (s + 1);
  r[18] = x & y;   r[19] = x | y;   r[20] = x ^ y;   r[21] = ~x;
  r[22] = !x;      r[23] = -x;      r[24] = -ux;     r[25] = ~ul;
  r[26] = x < y;   r[27] = x <= y;  r[28] = x > y;   r[29] = x >= y;
  r[30] = x == y;  r[31] = x != y;  r[32] = ux < uy; r[33] = x < uy;
  r[34] = lx < -(long long)ux;  r[35] = (x & 1) == (y & 1);
  r[36] = x / 7 + x % 7 * 7;         // == x
  r[37] = (x * 3 + y) % 16 - (y - x) / 3;
  r[38] = ul * 0x9E3779B97F4A7C15ULL; // wraps
  r[39] = (long long)(ux + 0x80000000u) - (ux ^ 0xFFFFu);
}

static void ints_host(const int *a, const int *b, long long *o, int i) {
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  long long lx = (long long)x * 100003LL, ly = y;
  unsigned long long ul = (unsigned long long)lx;
  int s = i % 31;
  long long *r = o + (long long)i * K;
  r[0] = x + y;    r[1] = x - y;    r[2] = x * y;    r[3] = x / y;
  r[4] = x % y;    r[5] = ux / uy;  r[6] = ux % uy;  r[7] = ux * uy;
  r[8] = lx / ly;  r[9] = lx % ly;  r[10] = lx * ly; r[11] = lx - ly * 7;
  r[12] = ux << s; r[13] = x >> s;  r[14] = ux >> s; r[15] = lx >> (s + 20);
  r[16] = ul << (s + 3); r[17] = ul >> (s + 1);
  r[18] = x & y;   r[19] = x | y;   r[20] = x ^ y;   r[21] = ~x;
  r[22] = !x;      r[23] = -x;      r[24] = -ux;     r[25] = ~ul;
  r[26] = x < y;   r[27] = x <= y;  r[28] = x > y;   r[29] = x >= y;
  r[30] = x == y;  r[31] = x != y;  r[32] = ux < uy; r[33] = x < uy;
  r[34] = lx < -(long long)ux;  r[35] = (x & 1) == (y & 1);
  r[36] = x / 7 + x % 7 * 7;
  r[37] = (x * 3 + y) % 16 - (y - x) / 3;
  r[38] = ul * 0x9E3779B97F4A7C15ULL;
  r[39] = (long long)(ux + 0x80000000u) - (ux ^ 0xFFFFu);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3001;
  int *ha = (int *)malloc(n * sizeof(int)), *hb = (int *)malloc(n * sizeof(int));
  long long *ho = (long long *)malloc((size_t)n * K * sizeof(long long));
  long long *want = (long long *)malloc((size_t)n * K * sizeof(long long));
  for (int i = 0; i < n; i++) {
    ha[i] = (i * 7919) % 10001 - 5000;
    if (i % 50 == 3) ha[i] = 0;
    hb[i] = (i * 31) % 193 - 96;
    if (hb[i] == 0) hb[i] = 7;
    if (i % 40 == 5) hb[i] = ha[i] ? ha[i] : 1;     // some equal operands
  }
  int *da, *db;
  long long *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&db, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, (size_t)n * K * sizeof(long long)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb, n * sizeof(int), cudaMemcpyHostToDevice));
  ints<<<(n + 127) / 128, 128>>>(da, db, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dout, (size_t)n * K * sizeof(long long), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    ints_host(ha, hb, want, i);
    for (int k = 0; k < K; k++) {
      long long g = ho[(long long)i * K + k], w = want[(long long)i * K + k];
      if (g != w && bad++ < 10)
        printf("thread %d (x=%d y=%d) r[%d] = %lld, want %lld\n", i, ha[i], hb[i], k, g, w);
    }
  }
  cudaFree(da); cudaFree(db); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
