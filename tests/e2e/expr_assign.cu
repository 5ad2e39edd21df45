// expr_assign.cu: compound assignment with every operator (int, unsigned,
// char, short, float, double, array elements, through pointers), pre/post
// ++ and -- (their values and their effects, also on pointers), the comma
// operator, sizeof, ?: and && || evaluating side effects only when needed.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
  printf("%s:%d: %s: %s\nFAIL\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

#define K 40
struct S3 { char c; int i; double d; };

__global__ void assign(const int *a, int *g, long long *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long *r = o + (long long)i * K;
  int x = a[i], v = x;
  v += 7;  r[0] = v;   v -= i;  r[1] = v;   v *= 3;  r[2] = v;
  v /= 5;  r[3] = v;   v %= 11; r[4] = v;   v >>= 1; r[5] = v;
  unsigned u = (unsigned)x;
  u <<= i % 7; r[6] = u;  u >>= 2; r[7] = u;  u &= 0xF0F0F0u; r[8] = u;
  u |= 0x101u; r[9] = u;  u ^= (unsigned)i; r[10] = u;
  float fl = x * 0.5f;
  fl += 1.25f; fl -= i; fl *= 0.5f; fl /= 4.0f; r[11] = (long long)(fl * 64.0f);
  double dd = x; dd /= 8; dd += 0.5; dd *= -2; dd -= 1; r[12] = (long long)(dd * 8);
  char c = (char)x; c += 100; r[13] = c;  c *= 3; r[14] = c;
  short sh = (short)x; sh *= 37; r[15] = sh; sh -= 30000; r[16] = sh;
  int arr[4] = {1, 2, 3, 4};
  arr[i % 4] += x; arr[(i + 1) % 4] *= 5; arr[(i + 2) % 4] -= arr[i % 4];
  r[17] = arr[0]; r[18] = arr[1]; r[19] = arr[2]; r[20] = arr[3];
  int *p = &g[i];
  *p += 5; p[0] <<= 1; *p |= 1; *p ^= i;        // global element through a pointer
  int k = x;
  r[21] = k++; r[22] = k; r[23] = ++k; r[24] = k--; r[25] = --k; r[26] = k;
  int *q = arr;
  *q++ = 10; *++q = 30; q--; *q-- = 20; r[27] = (q == arr) * 100 + arr[0] + arr[1] + arr[2];
  int m;
  r[28] = (m = i % 9, m * m + 1);
  int cnt = 0;
  for (int s = 0, t = i % 10; s < t; s++, t--) cnt++;
  r[29] = cnt;
  r[30] = sizeof(int) + sizeof(long long) * 10 + sizeof(struct S3) * 100 +
          sizeof x * 1000 + sizeof arr / sizeof arr[0] * 10000 + sizeof(short) * 100000;
  int se = 0;
  if (x > 0 && ++se > 0) se += 10;
  (void)(x < 0 || (se += 100));
  (void)(x == 0 && (se += 1000));
  bool t = (i % 3 == 0) || (se++ > 0);
  r[31] = se; r[32] = t;
  int u1 = 0, u2 = 0;
  int sel = (x & 1) ? ++u1 : u2--;
  r[33] = sel * 100 + u1 * 10 + u2;
  r[34] = x > 1000 ? 3 : x > 0 ? 2 : x == 0 ? 1 : x > -1000 ? 0 : -1;
  int w = 1;
  w += (u1 + 2) * 3;  w -= w / 4;  r[35] = w;
  long long L = x;
  L *= 1000003; L %= 999983; L &= 0xFFFFFFF; L <<= 3; L |= 5; r[36] = L;
  int z = i;
  r[37] = z++ * 2;  r[37] += z--;  r[38] = z;
  r[39] = (m = x, m += i, m * 2);
}

// The same, on the host.
static void assign_host(const int *a, int *g, long long *o, int i) {
  long long *r = o + (long long)i * K;
  int x = a[i], v = x;
  v += 7;  r[0] = v;   v -= i;  r[1] = v;   v *= 3;  r[2] = v;
  v /= 5;  r[3] = v;   v %= 11; r[4] = v;   v >>= 1; r[5] = v;
  unsigned u = (unsigned)x;
  u <<= i % 7; r[6] = u;  u >>= 2; r[7] = u;  u &= 0xF0F0F0u; r[8] = u;
  u |= 0x101u; r[9] = u;  u ^= (unsigned)i; r[10] = u;
  float fl = x * 0.5f;
  fl += 1.25f; fl -= i; fl *= 0.5f; fl /= 4.0f; r[11] = (long long)(fl * 64.0f);
  double dd = x; dd /= 8; dd += 0.5; dd *= -2; dd -= 1; r[12] = (long long)(dd * 8);
  char c = (char)x; c += 100; r[13] = c;  c *= 3; r[14] = c;
  short sh = (short)x; sh *= 37; r[15] = sh; sh -= 30000; r[16] = sh;
  int arr[4] = {1, 2, 3, 4};
  arr[i % 4] += x; arr[(i + 1) % 4] *= 5; arr[(i + 2) % 4] -= arr[i % 4];
  r[17] = arr[0]; r[18] = arr[1]; r[19] = arr[2]; r[20] = arr[3];
  int *p = &g[i];
  *p += 5; p[0] <<= 1; *p |= 1; *p ^= i;        // global element through a pointer
  int k = x;
  r[21] = k++; r[22] = k; r[23] = ++k; r[24] = k--; r[25] = --k; r[26] = k;
  int *q = arr;
  *q++ = 10; *++q = 30; q--; *q-- = 20; r[27] = (q == arr) * 100 + arr[0] + arr[1] + arr[2];
  int m;
  r[28] = (m = i % 9, m * m + 1);
  int cnt = 0;
  for (int s = 0, t = i % 10; s < t; s++, t--) cnt++;
  r[29] = cnt;
  r[30] = sizeof(int) + sizeof(long long) * 10 + sizeof(struct S3) * 100 +
          sizeof x * 1000 + sizeof arr / sizeof arr[0] * 10000 + sizeof(short) * 100000;
  int se = 0;
  if (x > 0 && ++se > 0) se += 10;
  (void)(x < 0 || (se += 100));
  (void)(x == 0 && (se += 1000));
  bool t = (i % 3 == 0) || (se++ > 0);
  r[31] = se; r[32] = t;
  int u1 = 0, u2 = 0;
  int sel = (x & 1) ? ++u1 : u2--;
  r[33] = sel * 100 + u1 * 10 + u2;
  r[34] = x > 1000 ? 3 : x > 0 ? 2 : x == 0 ? 1 : x > -1000 ? 0 : -1;
  int w = 1;
  w += (u1 + 2) * 3;  w -= w / 4;  r[35] = w;
  long long L = x;
  L *= 1000003; L %= 999983; L &= 0xFFFFFFF; L <<= 3; L |= 5; r[36] = L;
  int z = i;
  r[37] = z++ * 2;  r[37] += z--;  r[38] = z;
  r[39] = (m = x, m += i, m * 2);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1237;
  int *ha = (int *)malloc(n * sizeof(int)), *hg = (int *)malloc(n * sizeof(int));
  int *wg = (int *)malloc(n * sizeof(int));
  long long *ho = (long long *)malloc((size_t)n * K * sizeof(long long));
  long long *wo = (long long *)malloc((size_t)n * K * sizeof(long long));
  for (int i = 0; i < n; i++) {
    ha[i] = (i * 7919) % 20001 - 10000;
    if (i % 37 == 0) ha[i] = 0;
    hg[i] = wg[i] = i * 3 + 7;
  }
  int *da, *dg;
  long long *dout;
  CHECK(cudaMalloc(&da, n * sizeof(int)));
  CHECK(cudaMalloc(&dg, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, (size_t)n * K * sizeof(long long)));
  CHECK(cudaMemcpy(da, ha, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dg, hg, n * sizeof(int), cudaMemcpyHostToDevice));
  assign<<<(n + 99) / 100, 100>>>(da, dg, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, dout, (size_t)n * K * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hg, dg, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    assign_host(ha, wg, wo, i);
    for (int k = 0; k < K; k++) {
      long long gv = ho[(long long)i * K + k], w = wo[(long long)i * K + k];
      if (gv != w && bad++ < 10)
        printf("thread %d (x=%d) r[%d] = %lld, want %lld\n", i, ha[i], k, gv, w);
    }
    if (hg[i] != wg[i] && bad++ < 10)
      printf("thread %d: g = %d, want %d\n", i, hg[i], wg[i]);
  }
  cudaFree(da); cudaFree(dg); cudaFree(dout);
  if (bad) { printf("%d mismatches\nFAIL\n", bad); return 1; }
  printf("PASS\n");
  return 0;
}
